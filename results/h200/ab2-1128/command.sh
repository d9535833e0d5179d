# results/h200/ab2-1128/ (session of 2026-11-28 night, issue 60): on one H200 machine, the whole
# run with this session's build 5f1dfca ("$B": the chase table staged in 64 MB bands; the pipelines
# built after every resource, as before) and then with the previous session's last build
# (bbb9b5d, "$B-old"), row by row: ab-1128 found that building the pipelines while the later
# resources were made moved the small store rows; does anything still move?
# Rerun: scripts/reproduce.sh results/h200/ab2-1128 OUTDIR (with target/release/perftest-old)
nvidia-smi -L > "$out/gpus.txt" 2>&1
wall "$B" "${X[@]}" --device 0 --suite all --csv "$out/new-all.csv.gz" > "$out/new-all.txt" 2>&1
wall "$B-old" "${X[@]}" --device 0 --suite all --csv "$out/old-all.csv.gz" > "$out/old-all.txt" 2>&1
# python3 results/h200x4/whole-1128/compare.py "$out/old-all.csv.gz" "$out/new-all.csv.gz" > "$out/compare.txt"
