#!/usr/bin/env bash
# The latency suite on a GPU machine: every pointer chase verified once under the validation
# layer, then timed
# (`--suite latency`: clocks per load in the CSV's latency_clk, ns per load = latency_clk /
# clock_mhz × 1000) twice, to show the sweep repeats, with an nvidia-smi log beside the timed runs.
# Usage: scripts/h100-latency.sh OUTDIR   (with target/release/perftest built)
# Then:  scripts/latency-chart.py OUTDIR/run1.csv OUTDIR/latency.png
set -uo pipefail
out=${1:?output directory}
mkdir -p "$out"
B=target/release/perftest
$B --suite latency --verify --validation --csv "$out/verify.csv" > "$out/verify.txt" 2>&1
echo "verify exit $?" >> "$out/verify.txt"
smi=
if command -v nvidia-smi > /dev/null; then
  nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu --format=csv -lms 200 \
    > "$out/smi.csv" 2>/dev/null &
  smi=$!
fi
for run in run1 run2; do
  start=$(date +%s%N)
  $B --suite latency --csv "$out/$run.csv" --json "$out/$run.json" --format table > "$out/$run.txt" 2>&1
  echo "$run exit $? after $(( ($(date +%s%N) - start) / 1000000 )) ms" >> "$out/$run.txt"
done
[ -n "$smi" ] && kill "$smi" 2>/dev/null
tail -n 1 "$out/verify.txt" "$out/run1.txt" "$out/run2.txt"
