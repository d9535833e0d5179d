# results/h100/tensor-clock-1127/ (session of 2026-11-27, issue 48): on a freshly started
# nvidia-h100-x1 machine, the tensor-core rows timed with the clock read inside their kernels
# (`coopmat_…_tc`, `coopmat2_…_tc`: glsl/matrix/kernel_clock.glsl): the matrix suite verified,
# timed twice with a trace (the probes' and the kernels' clocks) while nvidia-smi samples the
# SM clock, then a whole run and its summary.
# Rerun: scripts/reproduce.sh results/h100/tensor-clock-1127 OUTDIR
"$B" "${X[@]}" --suite matrix --verify > "$out/verify.txt" 2>&1
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.max.sm,power.draw --format=csv -lms 50 \
  > "$out/smi.csv" 2>/dev/null &
smi=$!
for i in 1 2; do
  PERFTEST_TRACE="$out/matrix$i.trace" "$B" "${X[@]}" --suite matrix --csv "$out/matrix$i.csv" \
    > "$out/matrix$i.txt" 2>&1
done
kill "$smi" 2>/dev/null
wall "$B" "${X[@]}" --suite all --csv "$out/all.csv" > "$out/all.txt" 2>&1
"$B" summary "$out/all.csv" > "$out/summary.txt"
# all.csv, all.txt, matrix*.csv, the traces and smi.csv are gzipped here.
# python3 results/h100/tensor-clock-1127/follow.py results/h100/tensor-clock-1127 > follow.txt:
# whose clock the matrix rows' time follows between the three runs (theirs or the probes').
