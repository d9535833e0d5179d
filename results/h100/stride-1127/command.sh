# results/h100/stride-1127/ (session of 2026-11-27, issue 48): on a freshly started
# nvidia-h100-x1 machine, the stride sweep verified and timed, twice (run to run), with the
# latency sweep of the storage buffer beside it (the levels its sets lie on); the blocks' loads
# in the scrambled order (node 7 × step mod 16).
# Rerun: scripts/reproduce.sh results/h100/stride-1127 OUTDIR
"$B" "${X[@]}" --suite latency --filter "latency by stride" --verify > "$out/verify.txt" 2>&1
for run in 1 2; do
  wall "$B" "${X[@]}" --suite latency --filter "latency by stride" \
    --filter "latency: ByteAddressBuffer" --csv "$out/stride-$run.csv" > "$out/stride-$run.txt" 2>&1
done
nvidia-smi --query-gpu=name,driver_version --format=csv > "$out/gpu.txt"
