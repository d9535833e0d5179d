# results/h100/formats/ (formerly scripts/h100-formats.sh), run at commit be647bf: the
# `formats` suite verified once, timed twice (with the original suite, for the baseline ratio
# and the Texture2D<F> / Buffer<F> tests it is compared with), CSV, stdout and stderr of every
# command into OUTDIR. About a minute on an H100.
# Rerun: scripts/reproduce.sh results/h100/formats OUTDIR
t() { timeout 60 /usr/bin/time -f "wall %e s" "$@"; }
"$B" --list-devices > "$out/devices.txt" 2>&1
# Every test checked against the CPU reference (unsupported rows name what is missing).
t "$B" "${X[@]}" --suite formats --verify --csv "$out/formats-verify.csv" \
  > "$out/formats-verify.txt" 2> "$out/formats-verify.err"
echo "exit $?" >> "$out/formats-verify.err"
# Timed twice, back to back; the first with the JSON context (memory types in the rows).
t "$B" "${X[@]}" --suite original,formats --csv "$out/formats-run1.csv" --json "$out/formats-run1.json" \
  > "$out/formats-run1.txt" 2> "$out/formats-run1.err"
echo "exit $?" >> "$out/formats-run1.err"
t "$B" "${X[@]}" --suite original,formats --csv "$out/formats-run2.csv" \
  > "$out/formats-run2.txt" 2> "$out/formats-run2.err"
echo "exit $?" >> "$out/formats-run2.err"
python3 results/h100/formats/analysis.py "$out/formats-run1.csv" "$out/formats-run2.csv" \
  > "$out/formats-analysis.md" 2>&1 || true
# With the validation layers installed: the suite verified and timed under validation.
if [ -n "${VK_LAYER_PATH:-}" ]; then
  { t "$B" "${X[@]}" --suite formats --validation --verify; echo "exit $?";
    t "$B" "${X[@]}" --suite formats --validation --samples 3; echo "exit $?"; } > "$out/formats-validation.txt" 2>&1
fi
# (session of 2026-11-27) the largest JSON file written here is gzipped: the machine the GPU runs are sent to takes 64 MiB of tree.
