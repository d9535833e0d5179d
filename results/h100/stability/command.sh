# results/h100/stability/ (formerly scripts/h100-stability.sh), run at commit 25e2a60: figures
# that hold from run to run (issue 28): the baseline's own ratio, the write suite's contention
# rows at their fixed size three times, the latency suite (four chains per size, median and
# spread) verified under the validation layer and timed twice, and the uniform-buffer random
# gap (the cbuffer rows, the spread over 1-32 addresses per 32 lanes, every alternative a
# shader author has, the driver's statistics, and an independent CUDA implementation of the
# same loop through PTX when libcuda is there). The final write and latency runs were made with
# ONLY="write latency"; the whole file made the first build's ubo-*, baseline-*, cuda-constant.*
# and first-build/ (results/README.md, *Figures that hold*).
# Rerun: scripts/reproduce.sh results/h100/stability OUTDIR
#        ONLY="write latency" scripts/reproduce.sh results/h100/stability OUTDIR   (some parts:
#        baseline, write, latency, ubo)
STEP_TIMEOUT=${STEP_TIMEOUT:-300}
want() { [[ -z "${ONLY:-}" || " $ONLY " == *" $1 "* ]]; }
"$B" --list-devices > "$out/devices.txt" 2>&1
nvidia-smi > "$out/nvidia-smi.txt" 2>&1 || true
# 1. The baseline reads 1: the typed buffers, twice.
if want baseline; then
step baseline-run1 "${X[@]}" --filter "Buffer<" --csv "$out/baseline-run1.csv"
step baseline-run2 "${X[@]}" --filter "Buffer<" --csv "$out/baseline-run2.csv"
fi
# 2. The write suite (as results/h100/write): verified, then timed three times.
if want write; then
W=(--suite original,write --filter "Buffer<RGBA8>.Load random" --filter Store --filter Interlocked)
step write-verify "${X[@]}" "${W[@]}" --verify --csv "$out/write-verify.csv"
for run in 1 2 3; do
  step "write-run$run" "${X[@]}" "${W[@]}" --csv "$out/write-run$run.csv"
done
fi
# 3. The latency suite: verified under the validation layer, then timed twice.
if want latency; then
step latency-verify "${X[@]}" --suite latency --verify --validation --csv "$out/latency-verify.csv"
for run in 1 2; do
  step "latency-run$run" "${X[@]}" --suite latency --csv "$out/latency-run$run.csv" \
    --json "$out/latency-run$run.json"
done
fi
# 4. The uniform-buffer random gap: every way to read the same 16 KB at random, twice, and the
# driver's statistics of those kernels.
if want ubo; then
U=(--suite original,extended,pitfalls --filter cbuffer --filter "StructuredBuffer<float4>"
   --filter "Buffer<RGBA32f>" --filter "Buffer<RGBA8>.Load random" --filter "PushConstant"
   --filter "BufferReference<float4>" --filter "Pitfall private array")
for run in 1 2; do
  step "ubo-run$run" "${X[@]}" "${U[@]}" --csv "$out/ubo-run$run.csv"
done
step ubo-verify "${X[@]}" "${U[@]}" --verify
step ubo-shader-stats "${X[@]}" "${U[@]}" --samples 1 --warmup 0 --shader-stats
if [ -f results/h100/stability/cuda-constant.py ]; then
  timeout 120 python3 results/h100/stability/cuda-constant.py > "$out/cuda-constant.csv" 2> "$out/cuda-constant.err"
  echo "cuda-constant: exit $?" >&2
fi
fi
# (session of 2026-11-27) the largest JSON file written here is gzipped: the machine the GPU runs are sent to takes 64 MiB of tree.
