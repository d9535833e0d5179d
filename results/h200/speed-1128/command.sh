# results/h200/speed-1128/ (session of 2026-11-28 afternoon, issues 60 and 57): on one H200
# machine, this session's last build (e6be265: the chase tables shuffled on the host's cores,
# the store rows pinning no unused host memory, the trace's process and resources lines) —
# the default run three times and the health profile, traced, then the whole run, traced —
# and right after it the whole run of build e7272a2 ($BEFORE, the `after` of
# h200x4/whole-1128) on the same GPU. compare.py (h200x4/whole-1128's) sets them side by side.
# Committed gzipped: CSVs, traces, outputs.
# Rerun: scripts/reproduce.sh results/h200/speed-1128 OUTDIR after
#        BEFORE=path/to/e7272a2/perftest scripts/reproduce.sh results/h200/speed-1128 OUTDIR before
case "${1:-after}" in
  after)
    nvidia-smi -L > "$out/gpus-after.txt" 2>&1
    for i in 1 2 3; do
      PERFTEST_TRACE=$out/trace-default-$i.tsv wall "$B" "${X[@]}" --device 0 --json "$out/default-$i.json" > "$out/default-$i.txt" 2>&1
    done
    PERFTEST_TRACE=$out/trace-health.tsv wall "$B" "${X[@]}" --device 0 --suite health --csv "$out/health.csv" > "$out/health.txt" 2>&1
    PERFTEST_TRACE=$out/trace-after-all.tsv wall "$B" "${X[@]}" --device 0 --suite all --csv "$out/after-all.csv.gz" > "$out/after-all.txt" 2>&1
    ;;
  before)
    nvidia-smi -L > "$out/gpus-before.txt" 2>&1
    PERFTEST_TRACE=$out/trace-before-all.tsv wall "${BEFORE:-$B}" "${X[@]}" --device 0 --suite all --csv "$out/before-all.csv.gz" > "$out/before-all.txt" 2>&1
    ;;
esac
# python3 results/h200x4/whole-1128/compare.py "$out/before-all.csv.gz" "$out/after-all.csv.gz" > "$out/compare.txt"
