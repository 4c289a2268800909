#!/usr/bin/env bash
# scripts/ncu-lesson-conflicts.sh — the lesson's bank-conflict counts against Nsight
# Compute's, for each traced scan variant on one tile of its kernel (hillis-steele and
# blelloch-8-per-thread 512 elements, the Blelloch trees 1024, warp-shuffle 2048; one block):
#   trace: `satdof lesson scan --variant V --n TILE` (extra shared-memory wavefronts, the sum
#          over the tile's warp instructions of their conflict degree - 1)
#   ncu:   l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{ld,st}.sum of that variant's
#          tile launch (scanTilesKernel; blelloch-8-per-thread's scanTilesSeededKernel) in
#          test_scan_trace_cuda's OneKernelTileOfEachVariant
# Usage: scripts/ncu-lesson-conflicts.sh path/to/satdof path/to/test_scan_trace_cuda [output-dir]
# Prints one row a variant and says where the two disagree.
set -euo pipefail
[[ $# -ge 2 && -x $1 && -x $2 ]] || { echo "usage: $0 SATDOF TEST_SCAN_TRACE_CUDA [output-dir]" >&2; exit 2; }
satdof="$1" tests="$2" outdir="${3:-$(mktemp -d)}"
mkdir -p "$outdir"
command -v ncu >/dev/null || { echo "$0: ncu (Nsight Compute) not found in PATH" >&2; exit 2; }
raw="$outdir/lesson-conflicts.csv"
# VARIANT:TILE, in the order test_scan_trace_cuda launches them (tracedScanVariants()).
variants=(hillis-steele:512 blelloch:1024 blelloch-conflict-free:1024 blelloch-8-per-thread:512 warp-shuffle:2048)
ncu --metrics l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum \
    --kernel-name 'regex:scanTiles(Seeded)?Kernel' --csv --page raw --log-file "$raw" \
    "$tests" --gtest_filter='ScanTraceCuda.OneKernelTileOfEachVariant' > "$outdir/test.txt"
for vt in "${variants[@]}"; do
  "$satdof" lesson scan --variant "${vt%:*}" --n "${vt#*:}" | grep -o '[0-9]* extra shared-memory wavefronts' | cut -d' ' -f1
done > "$outdir/trace.txt"
python3 - "$raw" "$outdir/trace.txt" "${variants[@]}" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
start = next(i for i, r in enumerate(rows) if r and r[0] == "ID")
col = {n: i for i, n in enumerate(rows[start])}
ld = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"
st = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"
def number(t):
    try: return float(t.replace(",", ""))
    except ValueError: return 0.0
launches = [r for r in rows[start + 1:] if r and r[0].isdigit()]
traced = [int(x) for x in open(sys.argv[2]).read().split()]
variants = [v.split(":") for v in sys.argv[3:]]
if len(launches) != len(variants):
    sys.exit(f"expected {len(variants)} tile launches, profiled {len(launches)}")
print(f"{'variant':<24}{'tile':>6}{'trace':>10}{'ncu ld':>10}{'ncu st':>10}{'ncu sum':>10}  agree")
for (name, tile), r, t in zip(variants, launches, traced):
    a, b = number(r[col[ld]]), number(r[col[st]])
    same = "yes" if int(a + b) == t else f"NO ({int(a + b) - t:+d})"
    print(f"{name:<24}{tile:>6}{t:>10}{a:>10.0f}{b:>10.0f}{a + b:>10.0f}  {same}")
PY
