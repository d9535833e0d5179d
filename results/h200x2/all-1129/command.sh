# results/h200x2/all-1129/ (session of 2026-11-29, issue 57): the whole run on both H200s of
# one machine at once with the session's last build (81363c0), right after node6-1129 on the
# same machine: is every row held to its clock at node scale (`driver_sm_mhz` beside the
# probe's), none flagged? Against node6's machine alone nothing; against samples-1129's and
# host-1129's single H200: `python3 results/h200x4/whole-1128/compare.py`.
# Rerun: scripts/reproduce.sh results/h200x2/all-1129 OUTDIR
nvidia-smi -L > "$out/gpus.txt" 2>&1
PERFTEST_TRACE=$out/trace.tsv wall "$B" "${X[@]}" --device all --suite all --csv "$out/all.csv" > "$out/all.txt" 2>&1
# Seen: 162.5 s; 7730 ok, 286 unsupported, 0 failed; 1 re-measured (low clock), 0 still
# flagged; driver clocks beside 7728 rows, 0 more than 2 % from the probe's.
