#!/usr/bin/env bash
# The branch suite on a GPU machine: verified once, timed twice (`--suite branch`), with the
# driver's statistics of every kernel, and an nvidia-smi log beside the timed runs.
# Usage: scripts/h100-branch.sh OUTDIR   (with target/release/perftest built)
set -uo pipefail
out=${1:?output directory}
mkdir -p "$out"
B=target/release/perftest
$B --suite branch --verify --csv "$out/verify.csv" > "$out/verify.txt" 2>&1
echo "verify exit $?" >> "$out/verify.txt"
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu --format=csv -lms 200 \
  > "$out/smi.csv" 2>/dev/null &
smi=$!
for i in 1 2; do
  $B --suite branch --csv "$out/run$i.csv" --json "$out/run$i.json" > "$out/run$i.txt" 2>&1
  echo "run$i exit $?" >> "$out/run$i.txt"
done
kill $smi 2>/dev/null
$B --suite branch --samples 5 --shader-stats --csv "$out/stats.csv" > /dev/null 2> "$out/shader-stats.txt"
