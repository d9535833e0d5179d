# results/h100/matrix-peaks/ run at commit d515aea: the matrix suite's vkpeak rows (vec4 fp32,
# fp16, fp64 fma, int32 vec4, int16 and int8 multiply-adds; added after results/h100/matrix/
# was timed) verified against the CPU reference and under the validation layer, then timed
# twice, beside the instruction suite's scalar rows they extend.
# Rerun: scripts/reproduce.sh results/h100/matrix-peaks OUTDIR
"$B" --list-devices > "$out/devices.txt" 2>&1
{ "$B" "${X[@]}" --suite matrix --filter "matrix: peak" --verify --validation --csv "$out/verify.csv"; echo "exit $?"; } \
  > "$out/verify.txt" 2>&1
for i in 1 2; do
  { "$B" "${X[@]}" --suite matrix --filter "matrix: peak" --format table --csv "$out/run$i.csv"; echo "exit $?"; } \
    > "$out/run$i.txt" 2>&1
done
{ "$B" "${X[@]}" --suite instructions --filter "fp32 fma" --filter "fp16 fma" --filter "fp16x2 fma" \
    --filter "fp64 fma" --filter "int32 mad" --format table --csv "$out/instructions.csv"; \
  echo "exit $?"; } > "$out/instructions.txt" 2>&1
