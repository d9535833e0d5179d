# results/h100/drift/ (formerly scripts/h100-drift.sh), run at commit 75974a6 (README.md here):
# the drift check: 10 undisturbed default runs (no false alarm), and runs disturbed by a second
# GPU workload (another perftest process sampling bilinear RGBA32F for seconds) started mid-run
# of the original, control and extended suites: once for ~1 s (transient), once until the end
# (lasting), and the lasting case again with the check off (what earlier builds reported).
# Rerun: scripts/reproduce.sh results/h100/drift OUTDIR
now() { date +%s.%N; }
log() { echo "$(now) $*" >> "$out/events.txt"; }
disturber() { $B --filter "Texture2D<RGBA32F>.Sample(bilinear)" --samples 3000 --drift-limit off > /dev/null 2>&1; }
for i in $(seq 1 10); do
  /usr/bin/time -f "wall %e s" "$B" "${X[@]}" --csv "$out/undisturbed-$i.csv" > "$out/undisturbed-$i.txt" 2>&1
done
# Transient: a second GPU user for ~1 s, from 1.5 s into the run.
log "transient: measured run starts"
"$B" "${X[@]}" --suite original,control,extended --csv "$out/transient.csv" > "$out/transient.txt" 2>&1 &
m=$!
sleep 1.5; log "transient: disturber starts"
timeout 1.0 bash -c "$(declare -f disturber); B=$B disturber"; log "transient: disturber killed"
wait $m; log "transient: measured run ends (exit $?)"
# Lasting: a second GPU user from 1.5 s in until the measured run ends.
for mode in lasting lasting-check-off; do
  extra=(); [ "$mode" = lasting-check-off ] && extra=(--drift-limit off)
  log "$mode: measured run starts"
  "$B" "${X[@]}" --suite original,control,extended --strict "${extra[@]}" --csv "$out/$mode.csv" > "$out/$mode.txt" 2>&1 &
  m=$!
  sleep 1.5; log "$mode: disturber starts"
  ( while kill -0 $m 2>/dev/null; do disturber; done ) &
  d=$!
  wait $m; log "$mode: measured run ends (exit $?)"
  kill $d 2>/dev/null; pkill -f "samples 3000" 2>/dev/null; wait $d 2>/dev/null
done
