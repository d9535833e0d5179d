# results/h100/whole-run/ run at commit 922fdd4 (issue 35): is a whole run trustworthy? Each run
# on a freshly started H100 with nothing else on it, nvidia-smi sampling clocks, power and the
# clock-event reasons every 100 ms, and PERFTEST_TRACE writing every drift check (the baseline,
# the probe's raw ticks and the GPU timer's rate against the host's clock).
#   all-run1: the first cold start (the first command on that machine; came back with the
#             neighbour test below in the same call)
#   all-run2: the second cold start, then the suites in another order (all-reordered); the
#             --verify run (all-verify) in the next call, on the same machine
#   nb-*/q-*: the neighbour test: the bandwidth and matrix subsets while another process runs
#             bf16 matrix products (results/h100/whole-run/neighbour.py), then quiet right after
#   9f200c9/: at commit 9f200c9 (pipeline cache, in-place verify, narrow dispatch barrier), on a
#             freshly started H100: verify, then run1, in one call (the verify's text output,
#             trace and the nvidia-smi logs did not come back from the machine: its CSV did)
# Rerun: scripts/reproduce.sh results/h100/whole-run OUTDIR [run1|run2|verify|neighbour]
STEP_TIMEOUT=${STEP_TIMEOUT:-330}
what=${1:-run2}
smi=
if command -v nvidia-smi > /dev/null; then
  nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu,clocks_event_reasons.active \
    --format=csv -lms 100 > "$out/smi-$what.csv" 2>/dev/null &
  smi=$!
fi
case $what in
  run1 | run2)
    PERFTEST_TRACE=$out/all-$what.tsv step "all-$what" "${X[@]}" --suite all \
      --csv "$out/all-$what.csv" --json "$out/all-$what.json"
    if [ "$what" = run2 ]; then
      PERFTEST_TRACE=$out/all-reordered.tsv step all-reordered "${X[@]}" \
        --suite latency,matrix,bandwidth,original --csv "$out/all-reordered.csv"
    fi
    ;;
  verify)
    PERFTEST_TRACE=$out/all-verify.tsv step all-verify "${X[@]}" --suite all --verify --csv "$out/all-verify.csv"
    ;;
  neighbour)
    BW=(--suite bandwidth --filter " 64 KB" --filter " 16 MB" --filter " 1 GB")
    MX=(--suite matrix --filter "matrix: peak" --filter "coopmat 16x16" --filter "coopmat2 64x64x16")
    python3 results/h100/whole-run/neighbour.py 300 > "$out/neighbour.txt" 2>&1 &
    nb=$!
    sleep 8
    step nb-bw "${X[@]}" "${BW[@]}" --csv "$out/nb-bw.csv"
    step nb-mx "${X[@]}" "${MX[@]}" --csv "$out/nb-mx.csv"
    kill "$nb" 2>/dev/null; wait "$nb" 2>/dev/null
    step q-bw "${X[@]}" "${BW[@]}" --csv "$out/q-bw.csv"
    step q-mx "${X[@]}" "${MX[@]}" --csv "$out/q-mx.csv"
    ;;
esac
[ -n "$smi" ] && kill "$smi" 2>/dev/null
gzip -f "$out"/smi-*.csv "$out"/*.tsv 2>/dev/null || true
# The terminal output all-run2.txt is committed gzipped (all-run2.txt.gz), to keep the tree small.
# The terminal output all-verify.txt is committed gzipped (all-verify.txt.gz), to keep the tree small.
