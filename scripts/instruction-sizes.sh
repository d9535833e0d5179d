#!/usr/bin/env bash
# Machine instructions per operation of the instruction suite's arithmetic kernels, read off
# the driver's code size (`--shader-stats`, "Binary Size"; NVIDIA GPUs since Volta encode
# every instruction in 16 bytes): the kernels as committed, 16 rounds per loop iteration,
# against a build whose loop runs only the first 8 rounds. The difference is the code of 8
# rounds = 128 operations; prologue and epilogue cancel. The commands behind
# results/h100/instructions-code-size/.
# Usage: scripts/instruction-sizes.sh build          here: writes .gl/perftest-8rounds
#        scripts/instruction-sizes.sh run OUTDIR     on the GPU machine, beside target/release/perftest
#        scripts/instruction-sizes.sh table OUTDIR   the Markdown table of the two runs
set -euo pipefail
cd "$(dirname "$0")/.."
filters=(-f fp -f int -f convert)
case "${1:?build, run or table}" in
build)
  cp glsl/alu.comp /tmp/alu.comp.committed
  trap 'cp /tmp/alu.comp.committed glsl/alu.comp' EXIT
  # The loop's second line of rounds (8 … 15) goes; everything else stays.
  line=$(grep -n '^        ROUND(8) ROUND(9)' glsl/alu.comp | cut -d: -f1)
  sed -i "${line}s/.*/        \/\/ rounds 8..15 left out (scripts\/instruction-sizes.sh)/" glsl/alu.comp
  cargo build --release
  mkdir -p .gl
  cp target/release/perftest .gl/perftest-8rounds
  cp /tmp/alu.comp.committed glsl/alu.comp
  cargo build --release
  ;;
run)
  out=${2:?output directory}
  mkdir -p "$out"
  .gl/perftest-8rounds --suite instructions "${filters[@]}" --shader-stats > "$out/rounds8.txt" 2>&1
  target/release/perftest --suite instructions "${filters[@]}" --shader-stats > "$out/rounds16.txt" 2>&1
  ;;
table)
  out=${2:?output directory}
  python3 - "$out/rounds16.txt" "$out/rounds8.txt" <<'EOF'
import re, sys

def sizes(path):
    name, out = None, {}
    for line in open(path):
        m = re.match(r"^(\S.*): [0-9.]+ms", line)
        if m:
            name = m.group(1)
        m = re.search(r"Binary Size = (\d+)", line)
        if m and name:
            out[name] = int(m.group(1))
    return out

full, half = sizes(sys.argv[1]), sizes(sys.argv[2])
print("| operation | bytes, 16 rounds | bytes, 8 rounds | instructions per 128 ops | instructions per op |")
print("|---|---:|---:|---:|---:|")
for name, b16 in full.items():
    b8 = half.get(name)
    if b8 is None:
        continue
    n = (b16 - b8) / 16
    print(f"| `{name}` | {b16} | {b8} | {n:.0f} | {n / 128:.3f} |")
EOF
  ;;
*)
  echo "usage: $0 build | run OUTDIR | table OUTDIR" >&2
  exit 2
  ;;
esac
