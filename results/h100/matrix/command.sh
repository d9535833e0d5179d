# results/h100/matrix/ run at commit 541c719 (see command.txt for the line that ran): the matrix
# suite verified against the CPU reference, then under the validation layer (which, at
# 1.3.239, predates the cooperative-matrix extensions: perftest holds those back there); two
# timed runs, the second with the driver's statistics; beside them the instruction-suite rows
# results/README.md cites (fp32/fp16/fp64 fma, packed fp16, int32 mad). About 12 s on an H100.
# Rerun: scripts/reproduce.sh results/h100/matrix OUTDIR
# Then:  python3 results/h100/matrix/table.py OUTDIR/run1.csv OUTDIR/run2.csv OUTDIR/instructions.csv
"$B" --list-devices > "$out/devices.txt" 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw \
  --format=csv > "$out/nvidia-smi.txt" 2>&1
{ "$B" "${X[@]}" --suite matrix --verify --csv "$out/verify.csv"; echo "exit $?"; } > "$out/verify.txt" 2>&1
{ "$B" "${X[@]}" --suite matrix --verify --validation; echo "exit $?"; } > "$out/verify-validation.txt" 2>&1
{ "$B" "${X[@]}" --suite matrix --format table --csv "$out/run1.csv" --json "$out/run1.json"; echo "exit $?"; } \
  > "$out/run1.txt" 2>&1
{ "$B" "${X[@]}" --suite matrix --shader-stats --csv "$out/run2.csv"; echo "exit $?"; } > "$out/run2.txt" 2>&1
{ "$B" "${X[@]}" --suite instructions --filter "fp32 fma" --filter "fp16 fma" --filter "fp16x2 fma" \
    --filter "fp64 fma" --filter "int32 mad" --format table --csv "$out/instructions.csv"; \
  echo "exit $?"; } > "$out/instructions.txt" 2>&1
