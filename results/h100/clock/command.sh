# results/h100/clock/ (formerly scripts/h100-clock.sh), run at commit 392e3b6 as the first
# command on a freshly started H100 machine, with OLD=.gl/perftest-old (a build of commit
# 07c2938): clock-true rows (issue 20), with an nvidia-smi log at 100 ms beside every run:
#  fresh   `--suite all` as the first command on a freshly started machine
#  default four default runs (wall time and per-test agreement)
#  warm    `--suite all` once the GPU is warm (the reference the others are held to)
#  gaps    `--suite all --fault idle-gap` (2.5 s of idle before run positions 25, 125, …)
#  busy    `--suite all` with a second perftest loading the GPU from 8 s to 20 s into it
#  idle    `--suite all` after the GPU has idled (nvidia-smi at or below 400 MHz)
#  old     with $OLD (an earlier build), four default runs and `--suite all`: wall times of both
#          builds on the same machine (skipped, with a note, when OLD is not set)
# Rerun: scripts/reproduce.sh results/h100/clock OUTDIR [STEPS…]   (default: all seven)
# Then:  results/h100/clock/analysis.py OUTDIR
steps=${*:-fresh default warm gaps busy idle old}
now() { date +%s.%N; }
log() { echo "$(now) $*" >> "$out/events.txt"; }
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,utilization.gpu,temperature.gpu \
  --format=csv -lms 100 > "$out/smi.csv" 2>/dev/null &
smi=$!
sleep 0.5
timed() { # NAME ARGS…: one run, its wall time, stdout and stderr
  local name=$1; shift
  log "$name: starts"
  local t0; t0=$(date +%s%N)
  ${BIN:-$B} "${X[@]}" "$@" --csv "$out/$name.csv" --json "$out/$name.json" > "$out/$name.out" 2> "$out/$name.err"
  local rc=$?
  echo "$name rc=$rc wall_ms=$(( ($(date +%s%N) - t0) / 1000000 ))" >> "$out/walls.txt"
  log "$name: ends (exit $rc)"
}
sm_clock() { nvidia-smi --query-gpu=clocks.sm --format=csv,noheader,nounits | head -1; }
for step in $steps; do
  case $step in
    fresh) timed fresh --suite all ;;
    default) for i in 1 2 3 4; do timed "default-$i"; done ;;
    warm) timed warm --suite all ;;
    gaps) timed gaps --suite all --fault idle-gap ;;
    busy)
      timed busy --suite all &
      m=$!
      sleep 8; log "busy: disturber starts"
      timeout 12 bash -c "while :; do $B --filter 'Texture2D<RGBA32F>.Sample(bilinear)' \
        --samples 10000 --drift-limit off > /dev/null 2>&1; done"
      log "busy: disturber ends"
      wait $m ;;
    idle)
      for _ in $(seq 1 120); do
        c=$(sm_clock); [ "${c:-9999}" -le 400 ] && break; sleep 0.5
      done
      log "idle: nvidia-smi SM clock $(sm_clock) MHz before the run"
      timed idle --suite all ;;
    old)
      if [ -z "${OLD:-}" ]; then
        echo "old: skipped: set OLD to an earlier build (results/h100/clock used commit 07c2938)" >&2
        continue
      fi
      for i in 1 2 3 4; do BIN=$OLD timed "old-default-$i"; done
      BIN=$OLD timed old-all --suite all ;;
  esac
done
kill $smi 2>/dev/null
nvidia-smi -q -d CLOCK,PERFORMANCE > "$out/nvidia-smi-q.txt" 2>&1
