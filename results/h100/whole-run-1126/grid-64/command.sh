# results/h100/whole-run-1126/grid-64/: after the grid-stride copy row took 64 groups per SM
# (8448 on the H100), on a freshly started nvidia-h100-x1 machine: that row verified at its
# size, then a whole run (its summary block ends all.txt).
# Rerun: scripts/reproduce.sh results/h100/whole-run-1126/grid-64 OUTDIR
"$B" "${X[@]}" --suite bandwidth --filter "grid-stride" --verify --csv "$out/verify-grid.csv" \
  > "$out/verify-grid.txt" 2>&1
"$B" "${X[@]}" --suite all --csv "$out/all.csv" --json "$out/all.json" > "$out/all.txt" 2>&1
# The terminal output all.txt is committed gzipped (all.txt.gz), to keep the tree small.
