# results/h100/whole-run-1126/grid-set/: after the grid-stride copy row took a grid no wider
# than its set (set / 256 groups, between 1 and 64 per SM: 8448 from 35 MB up on the H100;
# grid-64/ ran 64 per SM at every size, which made the L2-sized copies 1.7x slower), on a
# freshly started nvidia-h100-x1 machine: the grid-stride rows verified, then a whole run.
# Rerun: scripts/reproduce.sh results/h100/whole-run-1126/grid-set OUTDIR
"$B" "${X[@]}" --suite bandwidth --filter "grid-stride" --verify --csv "$out/verify-grid.csv" \
  > "$out/verify-grid.txt" 2>&1
"$B" "${X[@]}" --suite all --csv "$out/all.csv" --json "$out/all.json" > "$out/all.txt" 2>&1
# The terminal output all.txt is committed gzipped (all.txt.gz), to keep the tree small.
