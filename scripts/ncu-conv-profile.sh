#!/usr/bin/env bash
# scripts/ncu-conv-profile.sh — Nsight Compute profiles of the convolution kernels that
# the 4K targets are about, each launched once from a headless 4K frame:
#   separable r = 7 (15x15 Gaussian), tiled-cached-halo and tiled-halo r = 1 and 2.
# Per kernel: speed of light, occupancy, warp states, scheduler, instruction statistics,
# and the SASS source page (per-instruction stall samples) as CSV.
#
# Usage: scripts/ncu-conv-profile.sh path/to/satdof [output-dir]
set -euo pipefail
source "$(dirname "$0")/ncu-args.sh"
sections=(--section SpeedOfLight --section Occupancy --section WarpStateStats
          --section SchedulerStats --section InstructionStats --section LaunchStats
          --section SourceCounters)
profile() {  # name kernel-regex conv radius
  local name=$1 kernel=$2 conv=$3 radius=$4
  ncu --clock-control none --kernel-name "regex:$kernel" --launch-count 1 "${sections[@]}" \
      --import-source no -o "$outdir/$name" -f \
      "$satdof" --headless --backend cuda --frames 1 --size 3840x2160 \
      --filter gaussian --radius "$radius" --conv "$conv" >"$outdir/$name.log" 2>&1
  ncu -i "$outdir/$name.ncu-rep" --print-summary none >"$outdir/$name.txt"
  ncu -i "$outdir/$name.ncu-rep" --page source --print-source sass --csv \
      >"$outdir/$name-sass.csv" 2>/dev/null || true
  echo "== $name ($conv, radius $radius)"
  grep -E "Duration|Executed Ipc Active|Issue Slots Busy|Achieved Active Warps|No Eligible|Registers Per|Stall|Warp Cycles Per Issued" \
    "$outdir/$name.txt" | sed 's/^ *//' | head -20
}
profile separable-r7 separableStripKernel separable 7
profile cached-r1 stripKernel tiled-cached-halo 1
profile cached-r2 stripKernel tiled-cached-halo 2
profile halo-r1 stripKernel tiled-halo 1
