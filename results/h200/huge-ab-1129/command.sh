# results/h200/huge-ab-1129/ (session of 2026-11-29, issue 57; builds bfdfba9 and 9886c55): one H200, the copies' host
# memory in 2 MB pages (this build, "$B") against 4 KB pages (9886c55, "$B-old"), in turn, five
# times each: the four 1 GB copies to and from host-coherent memory (two imported regions, on
# the compute and the transfer queue), and the health profile's prepare phase once each.
# Rerun: scripts/reproduce.sh results/h200/huge-ab-1129 OUTDIR (with target/release/perftest-old)
nvidia-smi -L > "$out/gpus.txt" 2>&1
for i in 1 2 3 4 5; do
  for b in new old; do
    bin=$B
    [ $b = old ] && bin=$B-old
    "$bin" "${X[@]}" --device 0 --suite bandwidth --filter "transfer: vkCmdCopyBuffer host-coherent to device 1 GB" --filter "transfer: vkCmdCopyBuffer device to host-coherent 1 GB" --csv "$out/$b-$i.csv" > "$out/$b-$i.txt" 2>&1
  done
done
for b in new old; do
  bin=$B
  [ $b = old ] && bin=$B-old
  PERFTEST_TRACE=$out/trace-health-$b.tsv "$bin" "${X[@]}" --device 0 --suite health --csv "$out/health-$b.csv" > "$out/health-$b.txt" 2>&1
done
