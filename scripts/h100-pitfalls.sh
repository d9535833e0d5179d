#!/usr/bin/env bash
# The pitfalls suite on a GPU machine: verified once, timed twice, and the driver's statistics
# of every kernel (registers, binary size, stack: what the compiler made of each way).
# Usage: scripts/h100-pitfalls.sh OUTDIR   (with target/release/perftest built)
set -uo pipefail
out=${1:?output directory}
mkdir -p "$out"
B=target/release/perftest
$B --suite pitfalls --verify --csv "$out/verify.csv" > "$out/verify.txt" 2>&1
echo "verify exit $?" >> "$out/verify.txt"
for i in 1 2; do
  $B --suite pitfalls --csv "$out/run$i.csv" > "$out/run$i.txt" 2>&1
  echo "run$i exit $?" >> "$out/run$i.txt"
done
# Each test's line (stdout) is followed by its kernel's statistics (stderr): one stream.
$B --suite pitfalls --samples 5 --shader-stats > "$out/shader-stats.txt" 2>&1
