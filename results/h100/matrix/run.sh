#!/usr/bin/env bash
# Verifies and times the matrix suite on a GPU machine (written for the H100): the commands
# behind results/h100/matrix/. Beside it, the instruction-suite rows that results/README.md
# cites with it (fp32/fp16/fp64 fma, packed fp16, int32 mad).
# Usage: results/h100/matrix/run.sh OUTDIR   (from the repository root, perftest built)
set -uo pipefail
out=${1:?output directory}
mkdir -p "$out"
B=target/release/perftest
wall() { /usr/bin/time -f "wall %e s" "$@"; }
$B --list-devices > "$out/devices.txt" 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw \
  --format=csv > "$out/nvidia-smi.txt" 2>&1
# 1. Every row against the CPU reference, under the validation layer (which holds back the
#    extensions it predates), then without it (the cooperative-matrix rows).
{ wall $B --suite matrix --verify --validation; echo "exit $?"; } > "$out/verify-validation.txt" 2>&1
{ wall $B --suite matrix --verify --csv "$out/verify.csv"; echo "exit $?"; } > "$out/verify.txt" 2>&1
# 2. Two timed runs back to back (run-to-run spread), the second with the driver's statistics.
I=(--filter "fp32 fma" --filter "fp16 fma" --filter "fp16x2 fma" --filter "fp64 fma" --filter "int32 mad")
{ wall $B --suite matrix --format table --csv "$out/run1.csv"; echo "exit $?"; } > "$out/run1.txt" 2>&1
{ wall $B --suite matrix --shader-stats --csv "$out/run2.csv"; echo "exit $?"; } > "$out/run2.txt" 2>&1
{ wall $B --suite instructions "${I[@]}" --format table --csv "$out/instructions.csv"; echo "exit $?"; } \
  > "$out/instructions.txt" 2>&1
