# results/h100x2/host-rows-1126/: the transfer family alone (copies, fills, dispatch costs) on
# both H100s of an nvidia-h100-x2 machine, all at once three times, then in turn once: whether
# the host-link rows that read low in results/h100x2/at-once-1126 (two of 16 1-GB host rows)
# read low again when both GPUs reach them together (the process lock serializes them).
# Rerun: scripts/reproduce.sh results/h100x2/host-rows-1126 OUTDIR
for i in 1 2 3; do
  "$B" "${X[@]}" --suite bandwidth --filter "transfer:" --device all --csv "$out/at-once-$i.csv" > "$out/at-once-$i.txt" 2>&1
done
"$B" "${X[@]}" --suite bandwidth --filter "transfer:" --device all --in-turn --csv "$out/in-turn.csv" > "$out/in-turn.txt" 2>&1
