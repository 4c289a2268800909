#!/usr/bin/env python3
"""Reads an Nsight Systems SQLite export and writes every timed event of the last frames
in a window in the middle of the run (CUDA API calls, kernels and copies, OpenGL API
calls and their GPU workloads, where present) as CSV rows: source,start_ns,end_ns,name,thread. Used by
scripts/handover-timeline; scripts/handover-timeline-svg draws the CSV."""
import csv
import sqlite3
import sys

db, out = sys.argv[1], sys.argv[2]
window_ms = float(sys.argv[3]) if len(sys.argv) > 3 else 12.0
con = sqlite3.connect(db)
tables = [r[0] for r in con.execute("select name from sqlite_master where type='table'")]
strings = {}
if "StringIds" in tables:
    strings = dict(con.execute("select id, value from StringIds"))
rows = []
for t in tables:
    cols = [r[1] for r in con.execute(f"pragma table_info('{t}')")]
    if "start" not in cols or "end" not in cols or t == "PROFILER_OVERHEAD":
        continue
    name_col = next((c for c in ("shortName", "nameId", "textId", "text", "name") if c in cols), None)
    thread_col = next((c for c in ("globalTid", "streamId", "contextId") if c in cols), None)
    q = f"select start, end, {name_col or 'NULL'}, {thread_col or 'NULL'} from '{t}'"
    for start, end, name, thread in con.execute(q):
        if start is None or end is None:
            continue
        if isinstance(name, int):
            name = strings.get(name, str(name))
        rows.append((t, start, end, name or "", thread if thread is not None else ""))
print("tables with times:", sorted({r[0] for r in rows}), file=sys.stderr)
if not rows:
    sys.exit("no timed events")
# A window in the middle of the run: past start-up, before tear-down.
kernels = [r for r in rows if r[0] == "CUPTI_ACTIVITY_KIND_KERNEL"] or rows
mid = (min(r[1] for r in kernels) + max(r[2] for r in kernels)) // 2
first, last = mid - int(window_ms * 5e5), mid + int(window_ms * 5e5)
with open(out, "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["source", "start_ns", "end_ns", "name", "thread"])
    for r in sorted(rows, key=lambda r: r[1]):
        if r[2] >= first and r[1] <= last:
            w.writerow(r)
