# results/h200/import-1129/ (session of 2026-11-29, issue 57): an experiment on one H200. A
# device's pin of its copies' host memory (vkAllocateMemory of one GB, host-coherent) takes
# 0.4-0.5 s and stalls every other device's driver calls, so on a node the pins go one after
# another. With PERFTEST_HOST_IMPORT=1 the copies' host buffers are instead one region the
# process allocates and faults in on every core, imported by each device
# (VK_EXT_external_memory_host). Does the import cost less, and do the copies read the same?
# The health profile with and without, in turn, traced (the prepare phase is the pin), and the
# transfer family's copies with and without.
# Made with 4eb7f94 plus the import behind that variable (an experiment build, not committed as
# such: the next commit makes the import the default for host-coherent memory and drops the
# variable, so a rerun with a later build imports in both halves; the `base-*` half is then
# results/h200x2/node5-1129's `new-*` build, 4eb7f94).
# Rerun: scripts/reproduce.sh results/h200/import-1129 OUTDIR
nvidia-smi -L > "$out/gpus.txt" 2>&1
wall "$B" "${X[@]}" --device 0 --suite health --csv "$out/first.csv" > "$out/first.txt" 2>&1
for i in 1 2 3; do
  PERFTEST_TRACE=$out/trace-base-$i.tsv wall "$B" "${X[@]}" --device 0 --suite health --csv "$out/base-$i.csv" > "$out/base-$i.txt" 2>&1
  PERFTEST_HOST_IMPORT=1 PERFTEST_TRACE=$out/trace-import-$i.tsv wall "$B" "${X[@]}" --device 0 --suite health --csv "$out/import-$i.csv" > "$out/import-$i.txt" 2>&1
done
for i in 1 2; do
  wall "$B" "${X[@]}" --device 0 --suite bandwidth --filter "transfer: vkCmdCopyBuffer" --csv "$out/copies-base-$i.csv" > "$out/copies-base-$i.txt" 2>&1
  PERFTEST_HOST_IMPORT=1 wall "$B" "${X[@]}" --device 0 --suite bandwidth --filter "transfer: vkCmdCopyBuffer" --csv "$out/copies-import-$i.csv" > "$out/copies-import-$i.txt" 2>&1
done
PERFTEST_HOST_IMPORT=1 wall "$B" "${X[@]}" --device 0 --suite bandwidth --filter "transfer: vkCmdCopyBuffer" --verify --csv "$out/copies-import-verify.csv" > "$out/copies-import-verify.txt" 2>&1
