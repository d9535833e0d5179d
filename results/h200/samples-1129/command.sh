# results/h200/samples-1129/ (session of 2026-11-29, issue 57): one H200; this build ("$B": a
# row whose samples spread takes as many as hold its median within 0.15 %, (1.25 CV / 0.15)²,
# at most 200) against the one before it ("$B-old", b7ed83c: every row beyond 0.5 % took 200
# or its 250 ms). The health profile first once with the old build (the machine's first run
# warms the driver's shader cache), then each build in turn, three times, traced; the fleet
# over the six; then the whole run with this build (against `final2-1129`'s, another H200:
# `python3 results/h200x4/whole-1128/compare.py`).
# Rerun: scripts/reproduce.sh results/h200/samples-1129 OUTDIR (with target/release/perftest-old)
nvidia-smi -L > "$out/gpus.txt" 2>&1
wall "$B-old" "${X[@]}" --device 0 --suite health --csv "$out/first-old.csv" > "$out/first-old.txt" 2>&1
for i in 1 2 3; do
  for b in new old; do
    bin=$B
    [ $b = old ] && bin=$B-old
    PERFTEST_TRACE=$out/trace-$b-$i.tsv wall "$bin" "${X[@]}" --device 0 --suite health --csv "$out/health-$b-$i.csv" > "$out/health-$b-$i.txt" 2>&1
  done
done
"$B" fleet "$out/health-new-1.csv" "$out/health-new-2.csv" "$out/health-new-3.csv" \
  "$out/health-old-1.csv" "$out/health-old-2.csv" "$out/health-old-3.csv" > "$out/verdict.txt" 2>&1
echo "fleet exit $?" >> "$out/verdict.txt"
wall "$B" "${X[@]}" --device 0 --suite all --csv "$out/all.csv" > "$out/all.txt" 2>&1
