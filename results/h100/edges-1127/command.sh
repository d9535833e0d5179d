# results/h100/edges-1127/ (session of 2026-11-27, issue 48): on a freshly started
# nvidia-h100-x1 machine (driver 580.159.04), the build that refines the latency curve's edges
# (probes bisecting each edge of `latency: ByteAddressBuffer <size>` after the sweep): a whole
# run, its summary as text and JSON.
# Rerun: scripts/reproduce.sh results/h100/edges-1127 OUTDIR
wall "$B" "${X[@]}" --suite all --csv "$out/all.csv" > "$out/all.txt" 2>&1   # both gzipped here
"$B" summary "$out/all.csv" > "$out/summary.txt"
"$B" summary "$out/all.csv" --json "$out/summary.json"   # gzipped here
# summary.txt and summary.json here are the final build's, from the same all.csv: a level's
# latency is now its sweep rows' median, without the edge probes near its end (the run's own
# build had put the L2 far part at 556 clk with two probes, 545 without).
