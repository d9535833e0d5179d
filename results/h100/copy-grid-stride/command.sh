# results/h100/copy-grid-stride/ run on a fresh nvidia-h100-x1 (driver 580.159.04) with a build
# of 5c37c74 plus the grid-stride copy row (committed in the next commit; the same kernel and
# row as committed), issue 38 item 2: the suite's chunked shader copy beside the grid-stride
# one at every size (copy.csv), the grid-stride rows verified (copy-verify.txt), and the
# 1 GB and 256 MB copies at several dispatch sizes (groups-G.*, one process each; repeat-G-1.*
# a second process each; --groups 65536 is over the option's range, so repeat-65536-1.txt is
# the usage error that stopped that loop).
# Rerun: scripts/reproduce.sh results/h100/copy-grid-stride OUTDIR
"$B" "${X[@]}" --suite bandwidth --filter "copy ByteAddressBuffer.Load4" --csv "$out/copy.csv" \
  > "$out/copy.txt" 2>&1
"$B" "${X[@]}" --suite bandwidth --filter "grid-stride" --verify > "$out/copy-verify.txt" 2>&1
for g in 1056 2112 3960 4224 8448 16896; do
  "$B" "${X[@]}" --suite bandwidth --groups $g --filter "Store4 1 GB" --filter "Store4, grid-stride 1 GB" \
    --filter "Store4 256 MB" --filter "Store4, grid-stride 256 MB" --csv "$out/groups-$g.csv" \
    > "$out/groups-$g.txt" 2>&1
done
for g in 4096 8448 16896 33792; do
  "$B" "${X[@]}" --suite bandwidth --groups $g --filter "Store4 1 GB" --filter "Store4, grid-stride 1 GB" \
    --csv "$out/repeat-$g-1.csv" > "$out/repeat-$g-1.txt" 2>&1
done
