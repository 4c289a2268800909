#!/usr/bin/env bash
# docs/measurements/gl-scan-run.sh — the gl-compute SAT on the GPU machine (headless EGL on
# the NVIDIA driver), from the repo root, with the cpu preset's satdof, shaders/ and the
# test binaries test_gl_scan and test_gl_compute in folder $1 (and GLFW's libraries in $1/lib):
#   1. the two GL test suites (every algorithm x scan variant x format against the
#      reference, 4K tables included);
#   2. the app's own per-stage medians (GL timestamps) of the "sat" section, 30 frames,
#      bokeh off: reduce-then-scan with every scan variant at 1920x1080 and 3840x2160,
#      rows-columns with every variant at 3840x2160, and the other formats at 4K for three
#      variants;
#   3. with SATDOF_TILE_BUILDS=1, builds whose tiles are 512 x 8 and 512 x 32 ($1/rows8,
#      $1/rows32: satdof and shaders/ with kTileRows changed in sat_tile.glsl and
#      gl_scan_sat.cpp) at 4K with four variants (the tile height's tuning).
# Everything goes to $OUT (gl-scan.txt: the summary; runs.log: the app's whole output).
set -uo pipefail
D="${1:-.device-glsl}"
OUT="${OUT:-/tmp/gl-scan-out}"
mkdir -p "$OUT"
export LD_LIBRARY_PATH="$D/lib:${LD_LIBRARY_PATH:-}"
[[ -e $D/tests/shaders ]] || ln -s ../shaders "$D/tests/shaders"  # the tests look beside themselves
log="$OUT/gl-scan.txt"
note() { echo "$*" | tee -a "$log"; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee -a "$log"
for t in test_gl_scan test_gl_compute; do
  "$D/tests/$t" > "$OUT/$t.log" 2>&1
  note "$t rc=$? $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$OUT/$t.log" | tr '\n' ' ')"
done
run() {  # algorithm scan size format [build folder]
  "${5:-$D}/satdof" --headless --backend gl-compute --sat "$1" --scan "$2" --frames 30 --size "$3" --save none \
    --bokeh off --sat-format "$4" --out /tmp/gl-scan-frames > /tmp/gl-scan-run.log 2>&1
  note "$1 $2 $3 $4 ${5:+($5) }rc=$? $(grep -E '^  sat ' /tmp/gl-scan-run.log | tr -s ' ') $(grep -iE 'error|cannot|unavailable' /tmp/gl-scan-run.log | head -1)"
  { echo "=== $*"; cat /tmp/gl-scan-run.log; } >> "$OUT/runs.log"
}
scans="hillis-steele blelloch blelloch-conflict-free blelloch-8-per-thread subgroup decoupled-lookback"
for size in 1920x1080 3840x2160; do
  for scan in $scans; do run reduce-then-scan $scan $size uint32; done
done
for scan in $scans; do run rows-columns $scan 3840x2160 uint32; done
for scan in blelloch-conflict-free blelloch-8-per-thread subgroup decoupled-lookback; do
  for format in float32 float32-offset uint21x3; do run reduce-then-scan $scan 3840x2160 $format; done
done
for rows in 8 32; do
  [[ ${SATDOF_TILE_BUILDS:-0} == 1 && -x $D/rows$rows/satdof ]] || continue
  for scan in blelloch-conflict-free blelloch-8-per-thread subgroup decoupled-lookback; do
    run reduce-then-scan $scan 3840x2160 uint32 "$D/rows$rows"
  done
done
grep -m2 -E 'GL-compute backend|GL 4' "$OUT/runs.log" | tee -a "$log"
