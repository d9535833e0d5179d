#!/usr/bin/env bash
# A node's GPU health check for Slurm's Prolog (or HealthCheckProgram, through NHC or a
# wrapper of the site's): runs the profile on this node's GPUs, judges it with the fleet's
# earlier results, prints one line per degraded item of this node's GPUs (each naming its
# GPU and its subsystem: `L2: bandwidth`, `arithmetic: fp32 fma`) and exits with the
# verdict's code: 0 healthy, 1 degraded, 2 could not judge (no fleet history, a history that
# is degraded itself, no rows, a perftest without the fleet verdict). It drains nothing
# itself: a Prolog's non-zero exit makes slurmd drain the node; see docs/fleet-slurm.md for
# both set-ups.
#
# Slurm runs it as root with an environment of its own, so its settings come from a file of
# shell assignments, PERFTEST_HEALTH_CONF (default /etc/perftest/health.conf, read when it
# exists), or the environment. The file is read as shell, as root: it must be owned by root
# and writable by root alone, or the check refuses it.
#   PERFTEST          the perftest binary (default: perftest on the PATH)
#   PERFTEST_ARGS     the profile, as words (default: --suite health --device all): quotes
#                     and backslashes group them as a shell's do, but nothing in them is run
#                     or expanded (`$(…)`, `$VAR` and `*` stay as written)
#   PERFTEST_FLEET_ARGS  more arguments of `perftest fleet`, as words, read alike (optional)
#   PERFTEST_HISTORY  the fleet's earlier results the run is judged with, colon-separated
#                     folders (required: e.g. the folder of a job of deploy/slurm/perftest.sbatch
#                     the verdict found healthy)
#   PERFTEST_HEALTH_DIR  where this node's latest run is kept, in a folder named by the host
#                     (default /var/tmp/perftest-health)
set -euo pipefail

die() { echo "perftest-health: $*" >&2; exit 2; }

# The words of $2 into the array named $1, without running anything in them: quotes and
# backslashes group words as a shell's do, `$(…)`, `$VAR` and globs stay as written (xargs
# splits them; a shell's `eval` would run them).
words() {
  local -n into=$1
  local parsed
  parsed=$(printf '%s\n' "$2" | xargs -r printf '%s\n') || return 1
  into=()
  [ -z "$parsed" ] || mapfile -t into <<<"$parsed"
}
# A Prolog's environment has no PATH.
export PATH=${PATH:-/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin}

conf=${PERFTEST_HEALTH_CONF:-/etc/perftest/health.conf}
if [ -f "$conf" ]; then
  # Its lines run as root: only a file root alone can change is read.
  if [ "$(id -u)" = 0 ]; then
    read -r owner mode < <(stat -L -c '%u %a' -- "$conf")
    if [ "$owner" != 0 ] || [ $((8#$mode & 8#022)) != 0 ]; then
      die "$conf: read as shell by root, so it must be owned by root and writable by root alone (owner uid $owner, mode $mode)"
    fi
  fi
  # shellcheck source=/dev/null
  . "$conf"
elif [ -n "${PERFTEST_HEALTH_CONF:-}" ]; then
  die "PERFTEST_HEALTH_CONF: no file $conf"
fi
PERFTEST=${PERFTEST:-perftest}
PERFTEST_ARGS=${PERFTEST_ARGS:---suite health --device all}
PERFTEST_HEALTH_DIR=${PERFTEST_HEALTH_DIR:-/var/tmp/perftest-health}
[ -n "${PERFTEST_HISTORY:-}" ] || die "PERFTEST_HISTORY is not set: the fleet's earlier results to judge this node with (in $conf)"
IFS=: read -ra history <<<"$PERFTEST_HISTORY"
for h in "${history[@]}"; do
  [ -d "$h" ] || die "PERFTEST_HISTORY: no folder $h"
done
command -v "$PERFTEST" >/dev/null || die "PERFTEST: no program $PERFTEST"
words args "$PERFTEST_ARGS" || die "PERFTEST_ARGS: not words (an unmatched quote?): $PERFTEST_ARGS"
words fleet_args "${PERFTEST_FLEET_ARGS:-}" || die "PERFTEST_FLEET_ARGS: not words (an unmatched quote?): $PERFTEST_FLEET_ARGS"

# The node's name as Slurm knows it (a Prolog and HealthCheckProgram have SLURMD_NODENAME).
host=${SLURMD_NODENAME:-$(hostname -s)}
out="$PERFTEST_HEALTH_DIR/$host"
mkdir -p "$out"
rm -f "$out/perftest.csv" "$out/confirm.csv" "$out/retest.txt" "$out/verdict-first.json" "$out/verdict.json" "$out/verdict.txt" "$out/history.txt"

rc=0
"$PERFTEST" "${args[@]}" --host "$host" --csv "$out/perftest.csv" >"$out/perftest.log" 2>&1 || rc=$?
if [ ! -s "$out/perftest.csv" ]; then
  die "$host: the profile wrote no rows (perftest exited $rc; $out/perftest.log)"
fi
"$PERFTEST" fleet --help >/dev/null 2>&1 ||
  die "$PERFTEST has no \`fleet\` command (a perftest from before the fleet verdict): not judged"

# The history alone first: a degraded GPU in it would make every node's verdict degraded.
before=0
"$PERFTEST" fleet "${history[@]}" "${fleet_args[@]}" >"$out/history.txt" 2>&1 || before=$?
if [ "$before" -eq 1 ]; then
  echo "perftest-health: $host: not judged: the history is degraded itself ($out/history.txt)"
  exit 2
fi
verdict=0
"$PERFTEST" fleet "${history[@]}" "$out" "${fleet_args[@]}" --json "$out/verdict.json" --retest "$out/retest.txt" >"$out/verdict.txt" 2>"$out/verdict.log" || verdict=$?
# Confirm before calling (docs/fleet.md): a suspect item of this host's GPUs (slower than the
# fleet in this run only) is re-measured — its tests again, into confirm.csv beside the run —
# and the node judged again with both runs: degraded only if the re-measure is as slow.
if [ "$verdict" -eq 3 ]; then
  filters=()
  while IFS=$'\t' read -r on test; do
    [ "$on" = "$host" ] && filters+=(--filter "$test")
  done <"$out/retest.txt"
  if [ "${#filters[@]}" -gt 0 ]; then
    again=0
    "$PERFTEST" "${args[@]}" "${filters[@]}" --host "$host" --csv "$out/confirm.csv" >"$out/confirm.log" 2>&1 || again=$?
    [ -s "$out/confirm.csv" ] || die "$host: the re-measure wrote no rows (perftest exited $again; $out/confirm.log)"
    # The first verdict's files out of the folder the second one reads.
    mv "$out/verdict.json" "$out/verdict-first.json"
    rm -f "$out/retest.txt"
    verdict=0
    "$PERFTEST" fleet "${history[@]}" "$out" "${fleet_args[@]}" --json "$out/verdict.json" >"$out/verdict.txt" 2>"$out/verdict.log" || verdict=$?
  fi
fi
# Still suspect: where none of it is this host's GPUs' (the history's), this host is healthy.
if [ "$verdict" -eq 3 ] &&
  ! awk -v host="$host" '/^  [^ ]/ { mine = index($0, "  " host ", ") == 1; next }
    mine && /^    suspect: / { found = 1 } END { exit !found }' "$out/verdict.txt"; then
  verdict=0
fi
case "$verdict" in
  0) ;;
  1)
    # One line per degraded item of this host's GPUs: the `degraded:` lines under each of
    # its GPUs' headings (`  host, uuid, device: degraded (file)`), each with its GPU.
    lines=$(awk -v host="$host" '
      /^[^ ]/ { mine = 0; next }
      /^  [^ ]/ {
        # The lines of the profile run; its re-measure (confirm.csv) shows the same items.
        mine = index($0, "  " host ", ") == 1 && $0 !~ /confirm\.csv\)$/
        gpu = substr($0, 3); sub(/: degraded \(.*$/, "", gpu); next
      }
      mine && /^    degraded: / { print "perftest-health: " gpu ": " substr($0, 5) }
    ' "$out/verdict.txt" 2>/dev/null)
    if [ -n "$lines" ]; then
      echo "$lines"
    else
      # Degraded, but not in an item of this host's GPUs (the history's): the whole verdict.
      cat "$out/verdict.txt"
    fi
    ;;
  *)
    # Why: the verdict's lines about this host's GPUs and their reasons, else its error.
    why=$(awk -v host="$host" '
      /^  [^ ]/ { mine = index($0, "  " host ", ") == 1; if (mine) print substr($0, 3); next }
      mine && /^    not judged: / { print "  " substr($0, 5) }
    ' "$out/verdict.txt" 2>/dev/null)
    [ -n "$why" ] || why=$(tail -n 1 "$out/verdict.log" 2>/dev/null)
    [ -n "$why" ] || why=$(tail -n 1 "$out/verdict.txt" 2>/dev/null)
    echo "perftest-health: $host: not judged (fleet exited $verdict; $out/verdict.txt):"
    echo "$why"
    verdict=2
    ;;
esac
exit "$verdict"
