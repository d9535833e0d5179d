# results/h100/whole-run-1126/cold-2/: as cold/ on a second machine — issue 38's last changes (the cold host reads: grid-stride,
# each element once per dispatch, the caches emptied by an untimed fill before each; the
# dispatch rows' kernel touching no memory; the dependent-chain row; the unsteady note), on a
# freshly started nvidia-h100-x1 machine: the new and changed rows verified, a whole run, then
# the host-memory and dispatch rows twice more in their own processes (how far they repeat).
# (cold/ is the first machine.)
# Rerun: scripts/reproduce.sh results/h100/whole-run-1126/cold-2 OUTDIR
"$B" "${X[@]}" --suite bandwidth --filter "once, cold" --filter "dispatch" --verify \
  --csv "$out/verify-new.csv" > "$out/verify-new.txt" 2>&1
"$B" "${X[@]}" --suite all --csv "$out/all.csv" --json "$out/all.json" > "$out/all.txt" 2>&1
for i in 1 2; do
  "$B" "${X[@]}" --suite bandwidth --filter "host-coherent" --filter "dispatch:" \
    --csv "$out/host-$i.csv" > "$out/host-$i.txt" 2>&1
done
# The terminal output all.txt is committed gzipped (all.txt.gz), to keep the tree small.
