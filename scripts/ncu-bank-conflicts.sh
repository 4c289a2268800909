#!/usr/bin/env bash
# scripts/ncu-bank-conflicts.sh — shared-memory bank conflicts of the two Blelloch tile
# kernels, measured with Nsight Compute, to show what the conflict-free padding buys.
#
# Usage: scripts/ncu-bank-conflicts.sh path/to/satdof [output-dir]
#
# Runs `satdof bench scan` (quick sizes, one timed run, no warm-up) for `blelloch` and
# `blelloch-conflict-free` under ncu, profiling only the tile-scan kernels (the uniform
# add touches no shared memory), and prints per kernel: launches and the summed load and
# store bank conflicts (l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{ld,st}.sum).
# The raw per-launch CSV stays in output-dir (default: a temporary directory).
set -euo pipefail
source "$(dirname "$0")/ncu-args.sh"

metrics=l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
raw="$outdir/bank-conflicts.csv"

ncu --metrics "$metrics" --kernel-name regex:scanTilesKernel --csv --page raw \
    --log-file "$raw" \
    "$satdof" bench scan --variant blelloch --variant blelloch-conflict-free \
    --quick --repeats 1 --warmup 0 >"$outdir/bench.txt"

python3 - "$raw" <<'PY'
import csv, re, sys
from collections import OrderedDict

rows = list(csv.reader(open(sys.argv[1], newline="")))
# Skip any ncu banner lines before the header.
start = next(i for i, r in enumerate(rows) if r and r[0] == "ID")
header, data = rows[start], rows[start + 1:]
col = {name: i for i, name in enumerate(header)}
ld = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"
st = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"

def number(text):
    try:
        return float(text.replace(",", ""))
    except ValueError:
        return None

totals = OrderedDict()
for r in data:
    if not r or not r[0].isdigit():   # the units line and anything else
        continue
    name = r[col["Kernel Name"]]
    m = re.search(r"(\w+Tile)<", name)  # the variant's tile type names the kernel
    key = m.group(1) if m else name.split("(")[0]
    t = totals.setdefault(key, [0, 0.0, 0.0])
    t[0] += 1
    t[1] += number(r[col[ld]]) or 0.0
    t[2] += number(r[col[st]]) or 0.0

if not totals:
    sys.exit("no scanTilesKernel launches were profiled")
w = max(len(k) for k in totals) + 2
print(f"{'kernel (tile)':<{w}}{'launches':>10}{'ld conflicts':>16}{'st conflicts':>16}")
for k, (n, a, b) in totals.items():
    print(f"{k:<{w}}{n:>10}{a:>16.0f}{b:>16.0f}")
PY
echo "(per-launch values: $raw)"
