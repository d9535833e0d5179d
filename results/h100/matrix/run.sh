#!/usr/bin/env bash
# Verifies and times the matrix suite on a GPU machine (written for the H100): the commands
# behind results/h100/matrix/ (command.txt has the exact line that ran). Beside it, the
# instruction-suite rows that results/README.md cites with it (fp32/fp16/fp64 fma, packed
# fp16, int32 mad). About 12 s on an H100.
# Usage: results/h100/matrix/run.sh OUTDIR [PERFTEST]   (from the repository root)
set -uo pipefail
o=${1:?output directory}
B=${2:-target/release/perftest}
mkdir -p "$o"
export RUST_BACKTRACE=1
$B --list-devices > "$o/devices.txt" 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw \
  --format=csv > "$o/nvidia-smi.txt" 2>&1
# 1. Every row against the CPU reference; then under the validation layer (which, at 1.3.239,
#    predates the cooperative-matrix extensions: perftest holds those back there).
{ $B --suite matrix --verify --csv "$o/verify.csv"; echo "exit $?"; } > "$o/verify.txt" 2>&1
{ $B --suite matrix --verify --validation; echo "exit $?"; } > "$o/verify-validation.txt" 2>&1
# 2. Two timed runs back to back (run-to-run spread), the second with the driver's statistics.
{ $B --suite matrix --format table --csv "$o/run1.csv" --json "$o/run1.json"; echo "exit $?"; } \
  > "$o/run1.txt" 2>&1
{ $B --suite matrix --shader-stats --csv "$o/run2.csv"; echo "exit $?"; } > "$o/run2.txt" 2>&1
{ $B --suite instructions --filter "fp32 fma" --filter "fp16 fma" --filter "fp16x2 fma" \
    --filter "fp64 fma" --filter "int32 mad" --format table --csv "$o/instructions.csv"; \
  echo "exit $?"; } > "$o/instructions.txt" 2>&1
# 3. The tables of results/README.md.
python3 "$(dirname "$0")/table.py" "$o/run1.csv" "$o/run2.csv" "$o/instructions.csv" \
  > "$o/table.md" 2>&1
