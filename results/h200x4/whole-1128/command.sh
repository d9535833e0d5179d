# results/h200x4/whole-1128/ (session of 2026-11-28 afternoon, issues 61 and 60): the whole run
# on GPU 0 of a four-H200 machine (the one of node3-1128, right after it), first with build
# 6aa991e ($BEFORE: the last build whose figures were shown on a GPU, in h200x4/speed-1128),
# then with this session's e7272a2 (every issue-61 refactor since: the families' shared Spec
# shapes, one bandwidth module, one image constructor, working sets on every sweep row; and
# the node lock of issue 57, which a single-GPU run does not take), traced; compare.py sets
# the two side by side (compare.txt). Committed gzipped: CSVs, traces, outputs (the JSON
# documents left out to keep the tree small: their time by phase is each output's time: line).
# Rerun: BEFORE=path/to/6aa991e/perftest scripts/reproduce.sh results/h200x4/whole-1128 OUTDIR before
#        scripts/reproduce.sh results/h200x4/whole-1128 OUTDIR after
case "${1:-after}" in
  before)
    nvidia-smi -L > "$out/gpus-before.txt" 2>&1
    PERFTEST_TRACE=$out/trace-before-all.tsv wall "${BEFORE:-$B}" "${X[@]}" --device 0 --suite all --csv "$out/before-all.csv.gz" --json "$out/before-all.json" > "$out/before-all.txt" 2>&1
    ;;
  after)
    nvidia-smi -L > "$out/gpus-after.txt" 2>&1
    PERFTEST_TRACE=$out/trace-after-all.tsv wall "$B" "${X[@]}" --device 0 --suite all --csv "$out/after-all.csv.gz" --json "$out/after-all.json" > "$out/after-all.txt" 2>&1
    ;;
esac
# python3 results/h200x4/whole-1128/compare.py "$out/before-all.csv.gz" "$out/after-all.csv.gz" > "$out/compare.txt"
