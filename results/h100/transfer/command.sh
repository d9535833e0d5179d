# results/h100/transfer/ run at commit 2b3e450: the bandwidth suite's copies, fills and
# dispatch costs (the transfer family), verified once under the validation layer, then timed
# twice; and the PCIe link the GPU trained to.
# Rerun: scripts/reproduce.sh results/h100/transfer OUTDIR
"$B" "${X[@]}" --suite bandwidth --filter transfer: --filter dispatch: --verify --validation \
  --csv "$out/verify.csv" > "$out/verify.txt" 2>&1
for i in 1 2; do
  "$B" "${X[@]}" --suite bandwidth --filter transfer: --filter dispatch: --csv "$out/run$i.csv" \
    --json "$out/run$i.json" > "$out/run$i.txt" 2>&1
done
nvidia-smi -q | grep -i -A3 "PCIe Generation\|Link Width" > "$out/pcie.txt"
