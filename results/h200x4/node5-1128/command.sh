# results/h200x4/node5-1128/ (session of 2026-11-28 evening, issues 57 and 60): on a machine of
# four H200s, this session's build (a chase not timed again for its dispatch's spread, the
# warm-up ended once settled at the clock seen at open, the transfer rows' host buffers kept
# across the queues): the default run three times on GPU 0; the health profile on GPU 0 alone
# twice and on all four GPUs at once twice, traced; the fleet over them; the health profile's
# transfer rows verified on GPU 0. Then what another GPU's work does to a host row: GPU 0's
# eight 1 GB host copies (the health profile's, `--filter "transfer: vkCmdCopyBuffer"`) three
# times alone, three times while GPUs 1-3 run the whole suite's chases (their own processes,
# started 10 s before), three times while GPUs 1-3 stream stores to device-local memory (the
# bandwidth sweep's, 200 samples each), and three times alone again.
# Rerun: scripts/reproduce.sh results/h200x4/node5-1128 OUTDIR
nvidia-smi -L > "$out/gpus.txt" 2>&1
nvidia-smi topo -m > "$out/topo.txt" 2>&1
for i in 1 2 3; do
  wall "$B" "${X[@]}" --device 0 --json "$out/default-$i.json" > "$out/default-$i.txt" 2>&1
done
for i in 1 2; do
  PERFTEST_TRACE=$out/trace-health-0-$i.tsv wall "$B" "${X[@]}" --device 0 --suite health --csv "$out/health-0-$i.csv" --json "$out/health-0-$i.json" > "$out/health-0-$i.txt" 2>&1
done
for i in 1 2; do
  PERFTEST_TRACE=$out/trace-health-all-$i.tsv wall "$B" "${X[@]}" --device all --suite health --csv "$out/health-all-$i.csv" --json "$out/health-all-$i.json" > "$out/health-all-$i.txt" 2>&1
done
"$B" fleet "$out/health-all-1.csv" "$out/health-all-2.csv" "$out/health-0-1.csv" "$out/health-0-2.csv" --json "$out/verdict.json" > "$out/verdict.txt" 2>&1
echo "fleet exit $?" >> "$out/verdict.txt"
wall "$B" "${X[@]}" --device 0 --suite health --verify --filter "transfer:" > "$out/verify-transfer.txt" 2>&1
copies() { # NAME: GPU 0's eight 1 GB host copies, three times
  for i in 1 2 3; do
    wall "$B" "${X[@]}" --device 0 --suite health --filter "transfer: vkCmdCopyBuffer" --csv "$out/copies-$1-$i.csv" > "$out/copies-$1-$i.txt" 2>&1
  done
}
beside() { # NAME ARGS…: copies while GPUs 1-3 run perftest ARGS (their own processes)
  local name=$1; shift
  for d in 1 2 3; do
    "$B" "${X[@]}" --device "$d" "$@" --csv "$out/beside-$name-$d.csv" > "$out/beside-$name-$d.txt" 2>&1 &
  done
  sleep 10
  copies "$name"
  pkill -INT -f -- "--csv $out/beside-$name-" ; wait
}
copies alone
beside chases --suite all --filter "latency:"
beside streams --suite all --filter "bandwidth: RWByteAddressBuffer.Store4" --samples 200
copies alone-again
