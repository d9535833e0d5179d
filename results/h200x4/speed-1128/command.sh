# results/h200x4/speed-1128/ (session of 2026-11-28, issue 60): the whole run before and after
# this session's run-time changes, on GPU 0 of one H200 machine (asked as nvidia-h100-x4; four
# H200s came; right after results/h200x4/node2-1128 on the same machine), one right after the
# other: `before` with build ed2ada8 ($BEFORE; the session's starting point), `after` with this
# session's build ($B), traced, then the default run three times and the health profile.
# Committed gzipped: the CSVs, JSON documents, traces and the whole runs' terminal outputs.
# Rerun: BEFORE=path/to/old/perftest scripts/reproduce.sh results/h200x4/speed-1128 OUTDIR before
#        scripts/reproduce.sh results/h200x4/speed-1128 OUTDIR after
case "${1:-after}" in
  before)
    nvidia-smi -L > "$out/gpus-before.txt" 2>&1
    wall "${BEFORE:-$B}" "${X[@]}" --device 0 --suite all --csv "$out/before-all.csv.gz" > "$out/before-all.txt" 2>&1
    ;;
  after)
    nvidia-smi -L > "$out/gpus-after.txt" 2>&1
    PERFTEST_TRACE=$out/trace-after-all.tsv wall "$B" "${X[@]}" --device 0 --suite all --csv "$out/after-all.csv.gz" --json "$out/after-all.json.gz" > "$out/after-all.txt" 2>&1
    for i in 1 2 3; do
      wall "$B" "${X[@]}" --device 0 --json "$out/default-$i.json" > "$out/default-$i.txt" 2>&1
    done
    PERFTEST_TRACE=$out/trace-health.tsv wall "$B" "${X[@]}" --device 0 --suite health --csv "$out/health.csv" --json "$out/health.json" > "$out/health.txt" 2>&1
    ;;
esac
