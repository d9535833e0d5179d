# results/h100/pitfalls/ (formerly scripts/h100-pitfalls.sh), run at commit 9d959f3: the
# pitfalls suite verified once, timed twice, and the driver's statistics of every kernel
# (registers, binary size, stack: what the compiler made of each way).
# Rerun: scripts/reproduce.sh results/h100/pitfalls OUTDIR
"$B" "${X[@]}" --suite pitfalls --verify --csv "$out/verify.csv" > "$out/verify.txt" 2>&1
echo "verify exit $?" >> "$out/verify.txt"
for i in 1 2; do
  "$B" "${X[@]}" --suite pitfalls --csv "$out/run$i.csv" > "$out/run$i.txt" 2>&1
  echo "run$i exit $?" >> "$out/run$i.txt"
done
# Each test's line (stdout) is followed by its kernel's statistics (stderr): one stream.
"$B" "${X[@]}" --suite pitfalls --samples 5 --shader-stats > "$out/shader-stats.txt" 2>&1
