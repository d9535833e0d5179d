# results/h100/clock-bins/ (session of 2026-11-27, issue 48: "the clock some rows report is above
# the GPU's"): on a freshly started nvidia-h100-x1 machine (driver 580.159.04), the probe reading
# the real-time clock edge to edge, twice in a row, with the trace (probe ticks and real-time
# ns of every probe). compare.py holds them against ../load-to-use-1127 (the whole run of the
# same session, the probe before the change) and prints what compare.txt has.
# Rerun: scripts/reproduce.sh results/h100/clock-bins OUTDIR
for v in new1 new2; do
  PERFTEST_TRACE="$out/trace-$v.txt" "$B" "${X[@]}" --suite bandwidth,latency,matrix \
    --filter "latency: ByteAddressBuffer" --filter coopmat --filter "bandwidth: ByteAddressBuffer.Load4" \
    --csv "$out/$v.csv" > "$out/$v.txt" 2>&1
done
