# results/lavapipe/cpu-caches-1127/ (session of 2026-11-27, issue 48): lavapipe on this
# session's two-core KVM (sysfs.txt: L1d 48 KB, L2 2 MB, L3 300 MB), whether the chase finds
# the host CPU's caches. Run here, not on a GPU machine; CSVs gzipped afterwards.
# Rerun: scripts/reproduce.sh results/lavapipe/cpu-caches-1127 OUTDIR
# sweep1/2: the ByteAddressBuffer and load-to-use chases at every size to 16 MB (98 rows).
A=()
for kb in 4 5 6 7 8 10 12 14 16 20 24 28 32 40 48 56 64 80 96 112 128 160 192 224 256 320 384 448 512 640 768 896; do
  A+=(--filter "latency: ByteAddressBuffer $kb KB" --filter "latency: BufferReference<uint2> load-to-use $kb KB")
done
for mb in 1 1.25 1.5 1.75 2 2.5 3 3.5 4 5 6 7 8 10 12 14 16; do
  A+=(--filter "latency: ByteAddressBuffer $mb MB" --filter "latency: BufferReference<uint2> load-to-use $mb MB")
done
for i in 1 2; do "$B" --device cpu "${X[@]}" --suite latency "${A[@]}" --csv "$out/sweep$i.csv" > "$out/sweep$i.txt" 2>&1; done
# plain1-3: eighteen sizes three times over, no drift check; pinned1-3: the same on one
# lavapipe thread pinned to CPU 1.
P=()
for s in 8 16 24 32 40 48 56 64 80 96 128 192 256 512; do P+=(--filter "latency: ByteAddressBuffer $s KB"); done
for s in 1 1.5 2 4; do P+=(--filter "latency: ByteAddressBuffer $s MB"); done
for i in 1 2 3; do "$B" --device cpu "${X[@]}" --suite latency "${P[@]}" --drift-limit off --csv "$out/plain$i.csv" > /dev/null 2>&1; done
for i in 1 2 3; do LP_NUM_THREADS=1 taskset -c 1 "$B" --device cpu "${X[@]}" --suite latency "${P[@]}" --drift-limit off --csv "$out/pinned$i.csv" > /dev/null 2>&1; done
# texture: the texel-fetch chases (alone and beside a 128 KB buffer's) and the buffer chase, for
# the summary's `L1 shared with the texture path` (left out here: 128 KB is past the plateau).
"$B" --device cpu "${X[@]}" --suite latency --filter "latency: Texture2D<float>.Load" --filter "latency: ByteAddressBuffer" --csv "$out/texture.csv" > "$out/texture.txt" 2>&1
# best.txt: python3 best.py (the fastest pass per size).
