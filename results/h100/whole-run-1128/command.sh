# results/h100/whole-run-1128/ (session of 2026-11-28, issues 58 and 63): on a freshly started
# nvidia-h100-x1 machine, a whole run with the build that adds the load-to-use chase's uint64_t
# form (the summary's load-to-use), its other forms and the plain cycles (issue 58), and the
# subgroup kernels' own width (the subgroup_size column, issue 63); its summary (text and JSON);
# then every suite verified.
# Rerun: scripts/reproduce.sh results/h100/whole-run-1128 OUTDIR
wall "$B" "${X[@]}" --suite all --csv "$out/all.csv" > "$out/all.txt" 2>&1   # gzipped here
"$B" summary "$out/all.csv" > "$out/summary.txt"
"$B" summary --json "$out/summary.json" "$out/all.csv"
wall "$B" "${X[@]}" --suite all --verify --csv "$out/verify.csv" > "$out/verify.txt" 2>&1   # gzipped here
