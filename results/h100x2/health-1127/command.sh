# results/h100x2/health-1127/ (session of 2026-11-27, issue 47: the health profile on build
# c6b66fd): on a freshly started nvidia-h100-x2 machine (driver 580.159.04), the profile on both
# GPUs at once twice, then on GPU 0 alone; wall times at the end of each .txt.
# Rerun: scripts/reproduce.sh results/h100x2/health-1127 OUTDIR
nvidia-smi -L > "$out/gpus.txt"
for i in 1 2; do
  wall "$B" "${X[@]}" --device all --suite health --csv "$out/health-both-$i.csv" > "$out/health-both-$i.txt" 2>&1
done
wall "$B" "${X[@]}" --device 0 --suite health --csv "$out/health-0.csv" > "$out/health-0.txt" 2>&1
