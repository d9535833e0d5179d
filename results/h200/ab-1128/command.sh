# results/h200/ab-1128/ (session of 2026-11-28 night, issue 60): on one H200 machine, the whole
# run with the last build of the previous session (bbb9b5d, "$B-old") and then with this
# session's (b6cba99, "$B": the chase table staged in 64 MB bands, the pipelines built as the
# tests are found supported), row by row: does any figure move with the setup's changes?
# (speed5-1128 against speed4-1128, two machines, put 105 rows beyond 2 %, the small store rows
# ±20–40 %, where earlier pairs of machines agreed within 1.6 % at p99.)
# Rerun: scripts/reproduce.sh results/h200/ab-1128 OUTDIR (with target/release/perftest-old)
nvidia-smi -L > "$out/gpus.txt" 2>&1
wall "$B-old" "${X[@]}" --device 0 --suite all --csv "$out/old-all.csv.gz" > "$out/old-all.txt" 2>&1
wall "$B" "${X[@]}" --device 0 --suite all --csv "$out/new-all.csv.gz" > "$out/new-all.txt" 2>&1
# python3 results/h200x4/whole-1128/compare.py "$out/old-all.csv.gz" "$out/new-all.csv.gz" > "$out/compare.txt"
