#!/usr/bin/env bash
# docs/measurements/race-run.sh — `satdof race` on the GPU machine: cuda and gl-compute at
# 3840x2160, and `satdof bench sat` beside it for the same cases. Outputs under $OUT.
set -u
D="${SATDOF_DEVICE_DIR:-$PWD/.device}"  # the gpu preset's satdof, its shaders/ and lib/
export LD_LIBRARY_PATH="$D/lib:${LD_LIBRARY_PATH:-}"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > "$OUT/gpu.txt" 2>&1
t0=$(date +%s)
timeout 70 "$D/satdof" race --backend cuda --size 3840x2160 --csv "$OUT/race-cuda.csv" > "$OUT/race-cuda.txt" 2>&1
echo "race cuda rc=$? $(( $(date +%s) - t0 )) s" >> "$OUT/rc.txt"
t0=$(date +%s)
timeout 50 "$D/satdof" bench sat --variant reduce-then-scan --variant rows-columns --repeats 15 --csv "$OUT/bench-sat.csv" > "$OUT/bench-sat.txt" 2>&1
echo "bench sat rc=$? $(( $(date +%s) - t0 )) s" >> "$OUT/rc.txt"
t0=$(date +%s)
timeout 55 "$D/satdof" race --backend gl-compute --size 3840x2160 --csv "$OUT/race-gl.csv" > "$OUT/race-gl.txt" 2>&1
echo "race gl-compute rc=$? $(( $(date +%s) - t0 )) s" >> "$OUT/rc.txt"
cat "$OUT/gpu.txt" "$OUT/rc.txt"
tail -n 4 "$OUT/race-cuda.txt" "$OUT/race-gl.txt"
