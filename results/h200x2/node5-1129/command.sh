# results/h200x2/node5-1129/ (session of 2026-11-29, issue 57): on one 2×H200 machine, this
# build ("$B": the health profile's host link read from one 1 GB copy each way, so each GPU
# pins one GB and holds the host for two copies instead of eight; the bandwidth pools and
# images filled on every core through one kept host band) against the last session's
# (ad68630, "$B-old"), in turn: the profile once to warm the driver's shader cache, then on
# GPU 0 alone and on both GPUs at once, twice each, traced; the fleet over this build's four.
# Rerun: scripts/reproduce.sh results/h200x2/node5-1129 OUTDIR (with target/release/perftest-old)
nvidia-smi -L > "$out/gpus.txt" 2>&1
wall "$B" "${X[@]}" --device 0 --suite health --csv "$out/first.csv" > "$out/first.txt" 2>&1
for d in 0 all; do
  for i in 1 2; do
    for b in new old; do
      bin=$B
      [ $b = old ] && bin=$B-old
      PERFTEST_TRACE=$out/trace-$b-$d-$i.tsv wall "$bin" "${X[@]}" --device $d --suite health --csv "$out/$b-$d-$i.csv" > "$out/$b-$d-$i.txt" 2>&1
    done
  done
done
"$B" fleet "$out/new-all-1.csv" "$out/new-all-2.csv" "$out/new-0-1.csv" "$out/new-0-2.csv" > "$out/verdict.txt" 2>&1
echo "fleet exit $?" >> "$out/verdict.txt"
