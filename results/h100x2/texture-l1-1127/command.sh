# results/h100x2/texture-l1-1127/ (session of 2026-11-27, issue 48): on a freshly started
# nvidia-h100-x2 machine, both GPUs at once: the texel-fetch chase alone and paired with a
# 128 KB raw-buffer chase, verified, then timed beside the raw-buffer chase (its L1 and L2
# levels); a summary of each GPU (`L1 shared with the texture path`).
# times.txt: each command's wall time.
# Rerun: scripts/reproduce.sh results/h100x2/texture-l1-1127 OUTDIR
T() { local name=$1; shift; local s; s=$(date +%s%N); "$@"; local rc=$?; echo "$name: $(( ($(date +%s%N) - s) / 1000000 )) ms, exit $rc" >> "$out/times.txt"; }
nvidia-smi -L > "$out/smi.txt" 2>&1
T verify "$B" "${X[@]}" --device all --suite latency --filter "latency: Texture2D<float>.Load beside" \
  --verify > "$out/verify.txt" 2>&1
T timed "$B" "${X[@]}" --device all --suite latency --filter "latency: Texture2D<float>.Load" \
  --filter "latency: ByteAddressBuffer" --csv "$out/pair.csv" > "$out/pair.txt" 2>&1   # csv gzipped here
"$B" summary "$out/pair.csv" > "$out/summary.txt" 2>&1
