# results/h200/load-to-use-1128/ (session of 2026-11-28, issue 58): on a freshly started
# machine of one H200 (asked for one GPU, an H200 came), the load-to-use chase in each of its forms (uint2 + bitcast, the
# uint64_t member, a reference member; each also in a loop of one step) and three plain random
# cycles of uint64_t nodes over 256 MB (every 8-byte word a node, one node per 128-byte line,
# one per 4 KB page), three passes (forms<pass>.csv), and their summary: which form reaches
# the hardware's load-to-use latency, and where the memory figure stands against a plain
# cycle (docs/latency.md).
# Rerun: scripts/reproduce.sh results/h200/load-to-use-1128 OUTDIR
for pass in 1 2 3; do
  wall "$B" "${X[@]}" --suite latency --filter load-to-use --filter "random cycle" --csv "$out/forms$pass.csv" > "$out/forms$pass.txt" 2>&1
done
"$B" summary "$out/forms1.csv" "$out/forms2.csv" "$out/forms3.csv" > "$out/summary.txt" 2>&1
