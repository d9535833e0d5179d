# results/h100/texture-l1-1127/ (session of 2026-11-27, issue 48): on a freshly started
# nvidia-h100-x1 machine, the texel-fetch chase paired with a 64 KB storage-buffer chase
# (whether the L1 and the texture cache are one storage) verified, then timed twice beside
# the texture and buffer chases alone, then a whole run and its summary.
# Rerun: scripts/reproduce.sh results/h100/texture-l1-1127 OUTDIR [pair|all] (default both)
part=${1:-both}
if [ "$part" != all ]; then
  "$B" "${X[@]}" --suite latency --filter "latency: Texture2D<float>.Load beside" --verify > "$out/verify.txt" 2>&1
  for i in 1 2; do
    wall "$B" "${X[@]}" --suite latency --filter "latency: Texture2D<float>.Load" --filter "latency: ByteAddressBuffer" --csv "$out/pair$i.csv" > "$out/pair$i.txt" 2>&1   # csv gzipped here
  done
fi
if [ "$part" != pair ]; then
  wall "$B" "${X[@]}" --suite all --csv "$out/all.csv" > "$out/all.txt" 2>&1   # both gzipped here
  "$B" summary "$out/all.csv" > "$out/summary.txt"
fi
# beside64/: the same verify and two timed runs with the first build, whose buffer set was
# 64 KB (`…ByteAddressBuffer{uint[16384]}`, BESIDE_KB=64): that set stayed in the L1 (see
# results/README.md).
