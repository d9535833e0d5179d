# results/h100/uniform/ (formerly scripts/h100-uniform.sh), run at commit 75974a6: the
# wave-wide uniform-load probes, the sampler set-ups and the ceiling suite, verified and timed
# twice beside the tests they compare to, with the driver's kernel statistics. Takes under a
# minute on an H100.
# Rerun: scripts/reproduce.sh results/h100/uniform OUTDIR
#        PERFTEST_ARGS="--device cpu --groups 1 --samples 2" scripts/reproduce.sh results/h100/uniform OUTDIR
#        rehearses it on lavapipe (the arguments go to every run).
# It ends with: python3 results/h100/uniform/analysis.py OUTDIR/run1.csv OUTDIR/run2.csv \
#                   --verify OUTDIR/verify.csv > OUTDIR/analysis.md
P=$B
B() { "$P" "${X[@]}" "$@"; }
# timed LOG ARGS…: one run, its output and then its wall time in LOG.
TIMEFORMAT="wall %R s"
timed() { local log=$1; shift; { time B "$@" > "$log" 2>&1; } 2>> "$log"; }
$P --list-devices > "$out/devices.txt" 2>&1
command -v nvidia-smi > /dev/null && nvidia-smi > "$out/nvidia-smi.txt" 2>&1
# 1. Every test of every suite (the 138 originals, the controls, the extended suite with the
#    new probes and sampler set-ups, the ceilings) against the CPU reference, full size.
B --suite original,control,extended,ceiling --verify --csv "$out/verify.csv" > "$out/verify.txt" 2>&1
echo "exit $?" >> "$out/verify.txt"
# 2. Timed twice, back to back: every figure the analysis compares (driver uniform loops,
#    texel fetches, original samples, controls) comes from the same runs as the new tests.
timed "$out/run1.txt" --suite original,control,extended,ceiling --csv "$out/run1.csv" --json "$out/run1.json"
timed "$out/run2.txt" --suite original,control,extended,ceiling --csv "$out/run2.csv"
# 3. The driver's statistics (registers, binary size) of every kernel: a wave-wide kernel's
#    binary holds one block, a ceiling's is no bigger than its loop would be unrolled.
B --suite original,control,extended,ceiling --samples 3 --warmup 1 --shader-stats > "$out/shader-stats.txt" 2>&1
# 4. Khronos validation (with synchronisation validation) over the new tests, where installed.
if [ -n "${VK_LAYER_PATH:-}" ] || ls /usr/share/vulkan/explicit_layer.d/*validation* > /dev/null 2>&1; then
  { B --suite extended,ceiling --validation --verify; echo "exit $?"; } > "$out/validation.txt" 2>&1
fi
python3 results/h100/uniform/analysis.py "$out/run1.csv" "$out/run2.csv" --verify "$out/verify.csv" \
  > "$out/analysis.md" 2> "$out/analysis.err"
tail -n 3 "$out/verify.txt" "$out/run1.txt" "$out/run2.txt"
# (session of 2026-11-27) the largest JSON file written here is gzipped: the machine the GPU runs are sent to takes 64 MiB of tree.
