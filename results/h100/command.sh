# The commands behind the files directly in results/h100/ (formerly scripts/h100-results.sh),
# run at commit f8fd0d2a8b1b; see results/README.md. Rerun: scripts/reproduce.sh results/h100 OUTDIR
"$B" --list-devices > "$out/devices.txt" 2>&1
# Two back-to-back default runs (the original suite): precision and wall time.
wall "$B" "${X[@]}" --csv "$out/original-run1.csv" > "$out/original-run1.txt" 2>&1
wall "$B" "${X[@]}" --csv "$out/original-run2.csv" > "$out/original-run2.txt" 2>&1
# Every suite, with the full JSON context, twice.
wall "$B" "${X[@]}" --suite all --csv "$out/all-run1.csv" --json "$out/all-run1.json" > "$out/all-run1.txt" 2>&1
wall "$B" "${X[@]}" --suite all --csv "$out/all-run2.csv" > "$out/all-run2.txt" 2>&1
"$B" "${X[@]}" --suite all --shuffle --seed 7 --csv "$out/all-shuffled.csv" > /dev/null 2>&1
"$B" "${X[@]}" --suite all --verify --csv "$out/verify.csv" > "$out/verify.txt" 2>&1
echo "exit $?" >> "$out/verify.txt"
"$B" "${X[@]}" --suite all --samples 3 --shader-stats > "$out/shader-stats.txt" 2>&1
"$B" "${X[@]}" --format markdown --filter "Texture2D<RGBA32F>" > "$out/markdown.txt" 2>/dev/null
"$B" "${X[@]}" --format table --suite all --filter cbuffer --filter Control > "$out/table.txt" 2>/dev/null
if [ -n "${VK_LAYER_PATH:-}" ]; then
  { "$B" "${X[@]}" --suite all --validation --verify; echo "exit $?";
    "$B" "${X[@]}" --suite all --validation --samples 5; echo "exit $?"; } > "$out/validation.txt" 2>&1
fi
# A third default run, made after the others (results/README.md: original-run3.csv).
wall "$B" "${X[@]}" --csv "$out/original-run3.csv" > "$out/original-run3.txt" 2>&1
