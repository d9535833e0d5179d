# results/h200/safety-1129/ (session of 2026-11-29, issues 57 and 59): one H200, the build of
# 7f1da0a (files a refused run names are left as they were; the trace held until the outputs
# open; a one- or two-digit --device is an index only). The health profile three times on
# GPU 0, traced (the first warms the driver's cache for this binary), and the fleet over them;
# then, as a user would mistype them on a one-GPU node: `--device 2` (NVIDIA H200's name holds
# a 2: the build before took it as part of the name, as it ran `-d 2` on lavapipe's
# "llvmpipe (… 256 bits)"), a refused --json beside a CSV and a trace written by the run
# before (both must stay that run's), and `--device 9` with the same trace.
# Seen: health 10.7 s (first), 8.0, 7.7 s; 0 re-measured, 0 flagged; fleet 3 healthy, exit 0;
# the three mistakes exit 2 naming the device or the file; kept.csv and trace-kept.tsv are the
# first run's (its row; its trace to `instance dropped`).
# Rerun: scripts/reproduce.sh results/h200/safety-1129 OUTDIR
nvidia-smi -L > "$out/gpus.txt" 2>&1
for i in 1 2 3; do
  PERFTEST_TRACE=$out/trace-health-$i.tsv wall "$B" "${X[@]}" --device 0 --suite health --csv "$out/health-$i.csv" > "$out/health-$i.txt" 2>&1
done
"$B" fleet "$out/health-1.csv" "$out/health-2.csv" "$out/health-3.csv" > "$out/verdict.txt" 2>&1
echo "fleet exit $?" >> "$out/verdict.txt"
step device-2 "${X[@]}" --device 2 --filter "cbuffer{float4} load uniform"
PERFTEST_TRACE=$out/trace-kept.tsv step first "${X[@]}" --device 0 --filter "cbuffer{float4} load uniform" --csv "$out/kept.csv"
PERFTEST_TRACE=$out/trace-kept.tsv step json-refused "${X[@]}" --device 0 --filter "cbuffer{float4} load uniform" --csv "$out/kept.csv" --json /proc/version
PERFTEST_TRACE=$out/trace-kept.tsv step device-9 "${X[@]}" --device 9 --filter "cbuffer{float4} load uniform" --csv "$out/kept.csv"
