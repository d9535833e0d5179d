# results/h100/branch/ (formerly scripts/h100-branch.sh), run at commit 0777877: the branch
# suite verified once, timed twice (`--suite branch`), with the driver's statistics of every
# kernel, and an nvidia-smi log beside the timed runs.
# Rerun: scripts/reproduce.sh results/h100/branch OUTDIR
"$B" "${X[@]}" --suite branch --verify --csv "$out/verify.csv" > "$out/verify.txt" 2>&1
echo "verify exit $?" >> "$out/verify.txt"
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu --format=csv -lms 200 \
  > "$out/smi.csv" 2>/dev/null &
smi=$!
for i in 1 2; do
  "$B" "${X[@]}" --suite branch --csv "$out/run$i.csv" --json "$out/run$i.json" > "$out/run$i.txt" 2>&1
  echo "run$i exit $?" >> "$out/run$i.txt"
done
kill $smi 2>/dev/null
"$B" "${X[@]}" --suite branch --samples 5 --shader-stats --csv "$out/stats.csv" > /dev/null 2> "$out/shader-stats.txt"
