# results/h100x2/alone-1126/: GPU 0 of the nvidia-h100-x2 machine alone, right after
# results/h100x2/at-once-1126/ on the same machine: the health profile, then the whole run.
# times.txt: each command's wall time.
# Rerun: scripts/reproduce.sh results/h100x2/alone-1126 OUTDIR
T() { local name=$1; shift; local s; s=$(date +%s%N); "$@"; local rc=$?; echo "$name: $(( ($(date +%s%N) - s) / 1000000 )) ms, exit $rc" >> "$out/times.txt"; }
nvidia-smi -L > "$out/smi.txt" 2>&1
T health-0 "$B" "${X[@]}" --suite health --device 0 --csv "$out/health-0.csv" > "$out/health-0.txt" 2>&1
T all-0 "$B" "${X[@]}" --suite all --device 0 --csv "$out/all-0.csv.gz" --json "$out/all-0.json.gz" > "$out/all-0.txt" 2>&1
# The terminal output all-0.txt is committed gzipped (all-0.txt.gz), to keep the tree small.
