# results/h100/write/ (formerly scripts/h100-write.sh), run at commit be647bf: the write
# suite verified, timed twice, and the load tests of the same resources timed, into OUTDIR
# (CSVs, JSON, and each command's stdout + stderr as .txt). Every command is capped at 60 s; on
# an H100 the whole file takes well under a minute.
# Rerun: scripts/reproduce.sh results/h100/write OUTDIR
#        PERFTEST_ARGS="--device cpu --groups 8" scripts/reproduce.sh results/h100/write OUTDIR
#        (a quick dry run on lavapipe)
# Then:  python3 results/h100/write/analysis.py OUTDIR > OUTDIR/analysis.md
STEP_TIMEOUT=${STEP_TIMEOUT:-60}
# Every write test, plus the baseline so that every row gets its ratio.
W=(--suite original,write --filter "Buffer<RGBA8>.Load random" --filter Store --filter Interlocked)
# The load tests of the same resources: SSBO (StructuredBuffer<float…>, ByteAddressBuffer),
# storage texel buffer (RWBuffer), storage image (RWTexture2D), shared memory; the baseline;
# and the loop ceilings (Control).
L=(--suite original,control,extended --filter "Buffer<RGBA8>.Load random"
   --filter "StructuredBuffer<float" --filter "ByteAddressBuffer.Load" --filter "RWBuffer<"
   --filter "RWTexture2D<" --filter "groupshared" --filter "Control")
start=$(date +%s%N)
"$B" --list-devices > "$out/devices.txt" 2>&1
nvidia-smi > "$out/nvidia-smi.txt" 2>&1 || true
# 1. Verification at the full dispatch size: every write test against the CPU model.
step write-verify "${X[@]}" "${W[@]}" --verify --csv "$out/write-verify.csv"
# 2. The same under the validation layer (synchronisation validation on): must stay silent.
step write-validation "${X[@]}" "${W[@]}" --verify --validation
# 3. Two timed runs, back to back (run-to-run precision), the first with the JSON context.
step write-run1 "${X[@]}" "${W[@]}" --csv "$out/write-run1.csv" --json "$out/write-run1.json"
step write-run2 "${X[@]}" "${W[@]}" --csv "$out/write-run2.csv"
# 4. The load tests of the same resources, for the side-by-side figures.
step loads "${X[@]}" "${L[@]}" --csv "$out/loads.csv"
# 5. The driver's statistics per write kernel (registers, binary size).
step write-shader-stats "${X[@]}" "${W[@]}" --samples 1 --warmup 0 --shader-stats
echo "total $(( ($(date +%s%N) - start) / 1000000 )) ms" | tee "$out/total.txt" >&2
