#!/usr/bin/env bash
# The `formats` suite on a GPU machine: verified once, timed twice (with the original suite,
# for the baseline ratio and the Texture2D<F> / Buffer<F> tests it is compared with), CSV,
# stdout and stderr of every command into OUTDIR. About a minute on an H100.
# Usage: scripts/h100-formats.sh OUTDIR   (with target/release/perftest built)
# Then:  python3 scripts/formats-analysis.py OUTDIR/formats-run1.csv OUTDIR/formats-run2.csv
set -uo pipefail
out=${1:?output directory}
mkdir -p "$out"
B=target/release/perftest
t() { timeout 60 /usr/bin/time -f "wall %e s" "$@"; }
$B --list-devices > "$out/devices.txt" 2>&1
# Every test checked against the CPU reference (unsupported rows name what is missing).
t $B --suite formats --verify --csv "$out/formats-verify.csv" \
  > "$out/formats-verify.txt" 2> "$out/formats-verify.err"
echo "exit $?" >> "$out/formats-verify.err"
# Timed twice, back to back; the first with the JSON context (memory types in the rows).
t $B --suite original,formats --csv "$out/formats-run1.csv" --json "$out/formats-run1.json" \
  > "$out/formats-run1.txt" 2> "$out/formats-run1.err"
echo "exit $?" >> "$out/formats-run1.err"
t $B --suite original,formats --csv "$out/formats-run2.csv" \
  > "$out/formats-run2.txt" 2> "$out/formats-run2.err"
echo "exit $?" >> "$out/formats-run2.err"
python3 scripts/formats-analysis.py "$out/formats-run1.csv" "$out/formats-run2.csv" \
  > "$out/formats-analysis.md" 2>&1 || true
# With the validation layers installed: the suite verified and timed under validation.
if [ -n "${VK_LAYER_PATH:-}" ]; then
  { t $B --suite formats --validation --verify; echo "exit $?";
    t $B --suite formats --validation --samples 3; echo "exit $?"; } > "$out/formats-validation.txt" 2>&1
fi
