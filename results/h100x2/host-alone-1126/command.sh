# results/h100x2/host-alone-1126/: the whole run on both H100s of an nvidia-h100-x2 machine at
# once, after the tests that share the host were made to run alone on the node (the other
# GPU's tests wait for them; before, they were only kept apart from each other:
# results/h100x2/at-once-1126/). trace.tsv.gz: PERFTEST_TRACE, one timeline of both GPUs.
# Rerun: scripts/reproduce.sh results/h100x2/host-alone-1126 OUTDIR
T() { local name=$1; shift; local s; s=$(date +%s%N); "$@"; local rc=$?; echo "$name: $(( ($(date +%s%N) - s) / 1000000 )) ms, exit $rc" >> "$out/times.txt"; }
nvidia-smi -L > "$out/smi.txt" 2>&1
export PERFTEST_TRACE="$out/trace.tsv"
T all-both "$B" "${X[@]}" --suite all --device all --csv "$out/all-both.csv.gz" > "$out/all-both.txt" 2>&1
unset PERFTEST_TRACE
gzip "$out/trace.tsv"
# The terminal output all-both.txt is committed gzipped (all-both.txt.gz), to keep the tree small.
