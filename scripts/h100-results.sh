#!/usr/bin/env bash
# Makes every result file in results/ on a GPU machine: the commands, exactly.
# Usage: scripts/h100-results.sh OUTDIR   (with target/release/perftest built)
set -uo pipefail
out=${1:?output directory}
mkdir -p "$out"
B=target/release/perftest
wall() { /usr/bin/time -f "wall %e s" "$@"; }
$B --list-devices > "$out/devices.txt" 2>&1
# Two back-to-back default runs (the original suite): precision and wall time.
wall $B --csv "$out/original-run1.csv" > "$out/original-run1.txt" 2>&1
wall $B --csv "$out/original-run2.csv" > "$out/original-run2.txt" 2>&1
# Every suite, with the full JSON context, twice.
wall $B --suite all --csv "$out/all-run1.csv" --json "$out/all-run1.json" > "$out/all-run1.txt" 2>&1
wall $B --suite all --csv "$out/all-run2.csv" > "$out/all-run2.txt" 2>&1
$B --suite all --shuffle --seed 7 --csv "$out/all-shuffled.csv" > /dev/null 2>&1
$B --suite all --verify --csv "$out/verify.csv" > "$out/verify.txt" 2>&1
echo "exit $?" >> "$out/verify.txt"
$B --suite all --samples 3 --shader-stats > "$out/shader-stats.txt" 2>&1
$B --format markdown --filter "Texture2D<RGBA32F>" > "$out/markdown.txt" 2>/dev/null
$B --format table --suite all --filter cbuffer --filter Control > "$out/table.txt" 2>/dev/null
if [ -n "${VK_LAYER_PATH:-}" ]; then
  { $B --suite all --validation --verify; echo "exit $?";
    $B --suite all --validation --samples 5; echo "exit $?"; } > "$out/validation.txt" 2>&1
fi
