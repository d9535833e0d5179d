# results/h200/cache-1129/ (session of 2026-11-29, issue 57): one H200, HEAD's build: what the
# driver's own shader cache is worth to the health profile, and where it lives. The profile
# traced: first on the fresh machine (a cold cache), then warm; then twice with the driver's
# disk cache off (`__GL_SHADER_DISK_CACHE=0`), and twice with a HOME no cache can be made in
# (`/dev/null`, not a folder even for root: what a prolog's user without a home of its own
# meets); each run's `pipelines` phase is what it cost.
# Rerun: scripts/reproduce.sh results/h200/cache-1129 OUTDIR
nvidia-smi -L > "$out/gpus.txt" 2>&1
{ echo "HOME=$HOME XDG_CACHE_HOME=${XDG_CACHE_HOME:-} id=$(id -u)"; ls -la "$HOME/.cache" "$HOME/.cache/nvidia" 2>&1; } > "$out/env.txt" 2>&1
for i in cold warm; do
  PERFTEST_TRACE=$out/trace-$i.tsv wall "$B" "${X[@]}" --device 0 --suite health --csv "$out/health-$i.csv" > "$out/health-$i.txt" 2>&1
done
du -sh "$HOME/.cache/nvidia" >> "$out/env.txt" 2>&1
for i in 1 2; do
  __GL_SHADER_DISK_CACHE=0 PERFTEST_TRACE=$out/trace-off-$i.tsv wall "$B" "${X[@]}" --device 0 --suite health --csv "$out/health-off-$i.csv" > "$out/health-off-$i.txt" 2>&1
done
for i in 1 2; do
  HOME=/dev/null XDG_CACHE_HOME= PERFTEST_TRACE=$out/trace-nohome-$i.tsv wall "$B" "${X[@]}" --device 0 --suite health --csv "$out/health-nohome-$i.csv" > "$out/health-nohome-$i.txt" 2>&1
done
ls -la /dev/null >> "$out/env.txt" 2>&1
