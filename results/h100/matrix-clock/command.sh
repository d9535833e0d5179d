# results/h100/matrix-clock/ run at commit 4c0c0ac: is the clock the probe reads under the
# matrix suite's rows (1993-2068 MHz, above the H100's 1980 MHz maximum) the SM's? The matrix
# suite timed once while nvidia-smi samples the SM clock every 50 ms.
# Rerun: scripts/reproduce.sh results/h100/matrix-clock OUTDIR
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.max.sm,power.draw --format=csv -lms 50 \
  > "$out/smi.csv" 2>/dev/null &
smi=$!
"$B" "${X[@]}" --suite matrix --csv "$out/run.csv" > "$out/run.txt" 2>&1
kill "$smi" 2>/dev/null
