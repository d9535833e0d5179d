# results/h100/review-1127/ (session of 2026-11-27, issue 48): after the review's mend (the
# stride table and the edge probes uploaded through the families' shared `upload`), on a
# freshly started nvidia-h100-x1 machine: the stride rows verified, then the storage buffer's
# latency sweep with its edge probes and the stride sweep, timed, and their summary.
# Rerun: scripts/reproduce.sh results/h100/review-1127 OUTDIR
"$B" "${X[@]}" --suite latency --filter "latency by stride" --verify > "$out/verify.txt" 2>&1
wall "$B" "${X[@]}" --suite latency --filter "latency: ByteAddressBuffer" --filter "load-to-use" \
  --filter "latency by stride" --csv "$out/latency.csv" > "$out/latency.txt" 2>&1   # csv gzipped here
"$B" summary "$out/latency.csv" > "$out/summary.txt"
