# results/h100/bandwidth-full/ run at commit de64e1f: the whole bandwidth suite (reads, stores,
# shader copies, reads of host memory, copies, fills, dispatch costs) timed twice, with an
# nvidia-smi log; the transfer rows (changed last) verified again under the validation layer.
# verify.csv.gz beside them is every row verified under the validation layer at commit d29971a
# (same kernels; --groups 32), by the first command of results/h100/bandwidth/command.sh.
# Rerun: scripts/reproduce.sh results/h100/bandwidth-full OUTDIR
STEP_TIMEOUT=${STEP_TIMEOUT:-300}
"$B" --list-devices > "$out/devices.txt" 2>&1
step verify-transfer "${X[@]}" --suite bandwidth --filter transfer: --filter dispatch: --verify \
  --validation --csv "$out/verify-transfer.csv"
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
# Added after the timed runs, at commit 0f6e701 (the same kernels): the stores, copies and
# host reads verified again under the validation layer, with the log kept.
step verify-writes "${X[@]}" --suite bandwidth --filter Store4 --filter "copy ByteAddress" \
  --filter "host-coherent memory" --filter "RGBA32F>.Store" --verify --validation --groups 32 \
  --csv "$out/verify-writes.csv"
