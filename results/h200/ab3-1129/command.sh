# results/h200/ab3-1129/ (session of 2026-11-29, issue 57): the whole run on one H200 (GPU 0 of
# the 2×H200 machine of results/h200x2/node5-1129, right after it) with this build ("$B": the
# bandwidth pools and images filled on every core through one kept host band, the staging
# buffers as large as before) and with the last session's (ad68630, "$B-old"): does any row move?
# Rerun: scripts/reproduce.sh results/h200/ab3-1129 OUTDIR (with target/release/perftest-old)
nvidia-smi -L > "$out/gpus.txt" 2>&1
wall "$B" "${X[@]}" --device 0 --suite all --csv "$out/new-all.csv.gz" > "$out/new-all.txt" 2>&1
wall "$B-old" "${X[@]}" --device 0 --suite all --csv "$out/old-all.csv.gz" > "$out/old-all.txt" 2>&1
# python3 results/h200x4/whole-1128/compare.py "$out/old-all.csv.gz" "$out/new-all.csv.gz" > "$out/compare.txt"
