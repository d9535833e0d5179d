# results/h100/workspace-1126/: the whole run after the workspace split (issue 46: crates by
# layer, typed notes and rows, flate2, nvml-wrapper, kernel ids), on a freshly started
# nvidia-h100-x1 machine: the whole run first (its outputs gzipped by the tool itself), then
# every test verified.
# Rerun: scripts/reproduce.sh results/h100/workspace-1126 OUTDIR
nvidia-smi -L > "$out/smi.txt" 2>&1
"$B" "${X[@]}" --suite all --csv "$out/all.csv.gz" --json "$out/all.json.gz" > "$out/all.txt" 2>&1
"$B" "${X[@]}" --suite all --verify --csv "$out/verify.csv.gz" > "$out/verify.txt" 2>&1
# The terminal output all.txt is committed gzipped (all.txt.gz), to keep the tree small.
# The terminal output verify.txt is committed gzipped (verify.txt.gz), to keep the tree small.
