# results/h100/whole-run-1126/ (session of 2026-11-26; issues 36–40): on a freshly started
# nvidia-h100-x1 machine (driver 580.159.04), in one call: every test verified, then a whole
# run (its summary block ends all.txt), then the host-memory rows twice more on their own
# (issue 38, item 4: do they repeat?).
# Rerun: scripts/reproduce.sh results/h100/whole-run-1126 OUTDIR
"$B" "${X[@]}" --suite all --verify --csv "$out/verify.csv" > "$out/verify.txt" 2>&1
"$B" "${X[@]}" --suite all --csv "$out/all.csv" --json "$out/all.json" > "$out/all.txt" 2>&1
for i in 1 2; do
  "$B" "${X[@]}" --suite bandwidth --filter host --filter BAR --csv "$out/host-$i.csv" \
    > "$out/host-$i.txt" 2>&1
done
# The terminal output all.txt is committed gzipped (all.txt.gz), to keep the tree small.
# The terminal output verify.txt is committed gzipped (verify.txt.gz), to keep the tree small.
