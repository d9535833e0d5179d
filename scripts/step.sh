# Sourced by the device scripts (h100-write.sh, h100-stability.sh), after they set $B (the
# perftest binary) and $out: step NAME ARGS… runs perftest with ARGS, stdout + stderr to
# $out/NAME.txt, capped at $STEP_TIMEOUT seconds (default 60), and appends the exit code and
# wall time there and on stderr.
step() {
  local name=$1 t0; shift
  t0=$(date +%s%N)
  timeout "${STEP_TIMEOUT:-60}" "$B" "$@" > "$out/$name.txt" 2>&1
  local rc=$?
  echo "exit $rc, wall $(( ($(date +%s%N) - t0) / 1000000 )) ms" >> "$out/$name.txt"
  echo "$name: exit $rc, $(( ($(date +%s%N) - t0) / 1000000 )) ms" >&2
}
