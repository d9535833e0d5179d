# results/h100/whole-run-1126/final/: the last whole run of this session (issue 38's rows, and a
# driver reading of an idle GPU no longer standing for a row's clock), on a freshly started
# nvidia-h100-x1 machine: every test verified, then a whole run.
# Rerun: scripts/reproduce.sh results/h100/whole-run-1126/final OUTDIR
"$B" "${X[@]}" --suite all --verify --csv "$out/verify.csv" > "$out/verify.txt" 2>&1
"$B" "${X[@]}" --suite all --csv "$out/all.csv" --json "$out/all.json" > "$out/all.txt" 2>&1
# The terminal output all.txt is committed gzipped (all.txt.gz), to keep the tree small.
# The terminal output verify.txt is committed gzipped (verify.txt.gz), to keep the tree small.
