#!/usr/bin/env bash
# Machine instructions per operation of the instruction suite's arithmetic kernels, read off
# the driver's code size (`--shader-stats`, "Binary Size"; NVIDIA GPUs since Volta encode
# every instruction in 16 bytes): the kernels as committed, 16 rounds per loop iteration,
# against a build whose loop runs only the first 8 rounds. The difference is the code of 8
# rounds = 128 operations; prologue and epilogue cancel. The commands behind
# results/h100/instructions-code-size/.
# Usage: scripts/instruction-sizes.sh build          here: writes .gl/perftest-8rounds
#        scripts/instruction-sizes.sh run OUTDIR     on the GPU machine, beside target/release/perftest
# The table: results/h100/instructions/vs-published.py RUN.csv OUTDIR (instructions per update, and
# per clock with the run's rates).
set -euo pipefail
cd "$(dirname "$0")/.."
filters=(-f fp -f int -f convert)
case "${1:?build or run}" in
build)
  cp glsl/instructions/alu.comp /tmp/alu.comp.committed
  trap 'cp /tmp/alu.comp.committed glsl/instructions/alu.comp' EXIT
  # The loop's second line of rounds (8 … 15) goes; everything else stays.
  line=$(grep -n '^        ROUND(8) ROUND(9)' glsl/instructions/alu.comp | cut -d: -f1)
  sed -i "${line}s/.*/        \/\/ rounds 8..15 left out (scripts\/instruction-sizes.sh)/" glsl/instructions/alu.comp
  cargo build --release
  mkdir -p .gl
  cp target/release/perftest .gl/perftest-8rounds
  cp /tmp/alu.comp.committed glsl/instructions/alu.comp
  cargo build --release
  ;;
run)
  out=${2:?output directory}
  for b in .gl/perftest-8rounds target/release/perftest; do
    [ -x "$b" ] || { echo "$0: $b is missing: run \`$0 build\` (and cargo build --release) first" >&2; exit 2; }
  done
  mkdir -p "$out"
  .gl/perftest-8rounds --suite instructions "${filters[@]}" --shader-stats > "$out/rounds8.txt" 2>&1
  target/release/perftest --suite instructions "${filters[@]}" --shader-stats > "$out/rounds16.txt" 2>&1
  ;;
*)
  echo "usage: $0 build | run OUTDIR" >&2
  exit 2
  ;;
esac
