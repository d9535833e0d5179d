# results/h100/latency-1127/ (session of 2026-11-27, issue 48): on a freshly started
# nvidia-h100-x1 machine (driver 580.159.04), the final build (the real-time wait bounded):
# the probe's readings in a trace over a few rows, then the latency suite alone, timed
# (its 746 tests with the 65 load-to-use rows).
# Rerun: scripts/reproduce.sh results/h100/latency-1127 OUTDIR
PERFTEST_TRACE="$out/trace.txt" "$B" "${X[@]}" --suite bandwidth,matrix \
  --filter "bandwidth: ByteAddressBuffer.Load4 4 KB" --filter "bandwidth: ByteAddressBuffer.Load4 1 GB" \
  --filter "coopmat 16x16x16 f16" --csv "$out/probe.csv" > "$out/probe.txt" 2>&1
wall "$B" "${X[@]}" --suite latency --csv "$out/latency.csv" > "$out/latency.txt" 2>&1
