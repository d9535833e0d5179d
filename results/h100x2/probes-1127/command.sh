# results/h100x2/probes-1127/ (session of 2026-11-27, issues 47 and 48): on a freshly started
# nvidia-h100-x2 machine, both GPUs at once: the latency curve (the raw-buffer chase, beside
# shared memory, load-to-use) with its edges refined by probes on each GPU, then the matrix
# suite with the tensor-core rows reading their own clock; a summary of each GPU's curve.
# times.txt: each command's wall time.
# Rerun: scripts/reproduce.sh results/h100x2/probes-1127 OUTDIR
T() { local name=$1; shift; local s; s=$(date +%s%N); "$@"; local rc=$?; echo "$name: $(( ($(date +%s%N) - s) / 1000000 )) ms, exit $rc" >> "$out/times.txt"; }
nvidia-smi -L > "$out/smi.txt" 2>&1
T latency "$B" "${X[@]}" --device all --suite latency --filter "latency: ByteAddressBuffer" \
  --filter "load-to-use" --csv "$out/latency.csv" > "$out/latency.txt" 2>&1
T matrix "$B" "${X[@]}" --device all --suite matrix --csv "$out/matrix.csv" > "$out/matrix.txt" 2>&1
"$B" summary "$out/latency.csv" > "$out/summary.txt" 2>&1
