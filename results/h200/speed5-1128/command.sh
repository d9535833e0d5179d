# results/h200/speed5-1128/ (session of 2026-11-28 night, issues 60 and 57): on a fresh H200
# machine, this session's build (the chase table staged in 64 MB bands filled on every core;
# the pipelines built as the tests are found supported, in order, their kernels handed to the
# builders at once): the health profile twice first (the first with the driver's shader cache
# cold), the default run three times, then the whole run, each traced. compare.py
# (h200x4/whole-1128's) sets the whole run beside speed4-1128's.
# Rerun: scripts/reproduce.sh results/h200/speed5-1128 OUTDIR
nvidia-smi -L > "$out/gpus.txt" 2>&1
for i in 1 2; do
  PERFTEST_TRACE=$out/trace-health-$i.tsv wall "$B" "${X[@]}" --device 0 --suite health --csv "$out/health-$i.csv" > "$out/health-$i.txt" 2>&1
done
for i in 1 2 3; do
  PERFTEST_TRACE=$out/trace-default-$i.tsv wall "$B" "${X[@]}" --device 0 > "$out/default-$i.txt" 2>&1
done
PERFTEST_TRACE=$out/trace-all.tsv wall "$B" "${X[@]}" --device 0 --suite all --csv "$out/all.csv.gz" > "$out/all.txt" 2>&1
# python3 results/h200x4/whole-1128/compare.py results/h200/speed4-1128/all.csv.gz "$out/all.csv.gz" > "$out/compare.txt"
