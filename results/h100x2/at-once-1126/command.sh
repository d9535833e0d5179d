# results/h100x2/at-once-1126/: both H100s of an nvidia-h100-x2 machine at once (issue 47): the
# health profile, then the whole run, each with --device all (a worker per GPU; the tests that
# share the host one GPU at a time). results/h100x2/alone-1126/ has GPU 0 alone on the same
# machine, run right after. times.txt: each command's wall time.
# Rerun: scripts/reproduce.sh results/h100x2/at-once-1126 OUTDIR
T() { local name=$1; shift; local s; s=$(date +%s%N); "$@"; local rc=$?; echo "$name: $(( ($(date +%s%N) - s) / 1000000 )) ms, exit $rc" >> "$out/times.txt"; }
nvidia-smi -L > "$out/smi.txt" 2>&1
T health-both "$B" "${X[@]}" --suite health --device all --csv "$out/health-both.csv" > "$out/health-both.txt" 2>&1
T all-both "$B" "${X[@]}" --suite all --device all --csv "$out/all-both.csv.gz" --json "$out/all-both.json.gz" > "$out/all-both.txt" 2>&1
# The terminal output all-both.txt is committed gzipped (all-both.txt.gz), to keep the tree small.
