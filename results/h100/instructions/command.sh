# results/h100/instructions/ (formerly scripts/h100-instructions.sh): the instruction suite
# verified and timed on the H100. About a minute there.
# Rerun: scripts/reproduce.sh results/h100/instructions OUTDIR
"$B" --list-devices > "$out/devices.txt" 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw \
  --format=csv > "$out/nvidia-smi.txt" 2>&1
# 1. Every kernel, throughput and latency, against the CPU reference at full size (exit 0 = all ok).
wall "$B" "${X[@]}" --suite instructions --verify --csv "$out/instructions-verify.csv" \
  > "$out/instructions-verify.txt" 2>&1
echo "exit $?" >> "$out/instructions-verify.txt"
# 2. The timing table (--format table on stdout), its CSV and the JSON context; notes on stderr.
wall "$B" "${X[@]}" --suite instructions --format table --csv "$out/instructions-run1.csv" \
  --json "$out/instructions-run1.json" > "$out/instructions-table.txt" 2> "$out/instructions-run1.err"
echo "exit $?" >> "$out/instructions-run1.err"
# 3. A second run, back to back (precision), with the driver's statistics under each test's
#    line (register counts: the occupancy rows; binary sizes: nothing folded away).
wall "$B" "${X[@]}" --suite instructions --shader-stats --csv "$out/instructions-run2.csv" \
  > "$out/instructions-shader-stats.txt" 2>&1
echo "exit $?" >> "$out/instructions-shader-stats.txt"
# 4. The comparison with Hopper's published per-SM rates (results/README.md), from run 1.
python3 results/h100/instructions/vs-published.py "$out/instructions-run1.csv" \
  > "$out/instructions-vs-published.md" 2>&1
# 5. Under the validation layer, where it is installed.
if [ -n "${VK_LAYER_PATH:-}" ]; then
  { "$B" "${X[@]}" --suite instructions --validation --verify; echo "exit $?";
    "$B" "${X[@]}" --suite instructions --validation --samples 5; echo "exit $?"; } \
    > "$out/instructions-validation.txt" 2>&1
fi
