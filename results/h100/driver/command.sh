# results/h100/driver/ (issue 39): the driver's own word beside every row — NVML's clocks,
# power, temperature and clock-event reasons read every 10 ms while each row is timed — on a
# freshly started H100 with nothing else on it: the device list with NVML's limits, then
# --suite all with the new columns filled, nvidia-smi sampling beside it.
# The files here: commit b81b5fb. b61aad8/: the same at commit b61aad8, after the sampler
# thread stopped sleeping out its 10 ms interval at the end of each row.
# Rerun: scripts/reproduce.sh results/h100/driver OUTDIR
STEP_TIMEOUT=${STEP_TIMEOUT:-330}
step devices "${X[@]}" --list-devices
smi=
if command -v nvidia-smi > /dev/null; then
  nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu,clocks_event_reasons.active \
    --format=csv -lms 100 > "$out/smi.csv" 2>/dev/null &
  smi=$!
fi
step all "${X[@]}" --suite all --csv "$out/all.csv" --json "$out/all.json"
[ -n "$smi" ] && kill "$smi" 2>/dev/null
gzip -f "$out"/smi.csv "$out"/all.csv "$out"/all.json 2>/dev/null || true
# The terminal output all.txt is committed gzipped (all.txt.gz), to keep the tree small.
