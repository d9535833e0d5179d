# results/h100/bandwidth/ (formerly scripts/h100-bandwidth.sh), run at commit b835bbf: the
# bandwidth suite, every row verified once under the validation layer (32 groups, so that the
# CPU's checksums stay quick), then timed twice, with an nvidia-smi log.
# Rerun: scripts/reproduce.sh results/h100/bandwidth OUTDIR
# Then:  results/h100/curves.py OUTDIR/run1.csv --plateau … (curves.txt); perftest report OUTDIR/run1.csv -o OUTDIR/report.html (the chart)
STEP_TIMEOUT=${STEP_TIMEOUT:-300}
"$B" --list-devices > "$out/devices.txt" 2>&1
nvidia-smi > "$out/nvidia-smi.txt" 2>&1 || true
step verify "${X[@]}" --suite bandwidth --verify --validation --groups 32 --csv "$out/verify.csv"
smi=
if command -v nvidia-smi > /dev/null; then
  nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv \
    -lms 200 > "$out/smi.csv" 2>/dev/null &
  smi=$!
fi
for run in 1 2; do
  step "run$run" "${X[@]}" --suite bandwidth --csv "$out/run$run.csv" --format table
done
[ -n "$smi" ] && kill "$smi" 2>/dev/null
gzip -f "$out/smi.csv" 2>/dev/null || true
