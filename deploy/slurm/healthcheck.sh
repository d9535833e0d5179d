#!/usr/bin/env bash
# A node's GPU health check for Slurm's Prolog (or HealthCheckProgram, through NHC or a
# wrapper of the site's): runs the profile on this node's GPUs, judges it with the fleet's
# earlier results, prints one line per degraded item of this node's GPUs (each naming its
# GPU and its subsystem: `L2: bandwidth`, `arithmetic: fp32 fma`) and exits with the
# verdict's code: 0 healthy, 1 degraded (or a test that failed on a GPU, or fewer GPUs than
# the node had in the history), 2 could not judge (no fleet history, a history that is
# degraded itself, no rows, a run that did not finish, a perftest without the fleet verdict
# or without its `fleet --host`). It drains nothing
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
  # Read in a subshell first: a file that fails as shell (an unset variable, a command that
  # fails, an unquoted word run as a command) is a configuration error, exit 2, not a verdict.
  # shellcheck source=/dev/null
  if ! err=$( (. "$conf") 2>&1 >/dev/null); then
    die "$conf: does not read as shell assignments: ${err:-a line in it failed}"
  fi
  # shellcheck source=/dev/null
  . "$conf"
elif [ -n "${PERFTEST_HEALTH_CONF:-}" ]; then
  die "PERFTEST_HEALTH_CONF: no file $conf"
fi
PERFTEST=${PERFTEST:-perftest}
PERFTEST_ARGS=${PERFTEST_ARGS:---suite health --device all}
# Only blanks is no profile: the default.
[ -n "${PERFTEST_ARGS//[[:space:]]/}" ] || PERFTEST_ARGS="--suite health --device all"
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
# A folder's name, and nothing else (`../x` would write outside PERFTEST_HEALTH_DIR).
case $host in
  '' | . | .. | *[!A-Za-z0-9._-]*) die "the node's name '$host' is no folder name (letters, digits, . _ -)" ;;
esac
# The folder this check writes into as root: its own, writable by it alone, never a link.
# One another user made (in /var/tmp anyone may) could hold links to system files that the
# check's writes would follow, or result files the verdict would read.
base=$PERFTEST_HEALTH_DIR
mkdir -p -m 0755 -- "$base" 2>/dev/null || die "PERFTEST_HEALTH_DIR: cannot make the folder $base"
[ -d "$base" ] && [ ! -L "$base" ] || die "PERFTEST_HEALTH_DIR: $base is no folder (a link or a file); give the folder itself"
read -r owner mode < <(stat -c '%u %a' -- "$base")
if [ "$owner" != "$(id -u)" ] || [ $((8#$mode & 8#022)) != 0 ]; then
  die "PERFTEST_HEALTH_DIR: $base must be this check's own and writable by it alone (owner uid $owner, mode $mode; the check runs as uid $(id -u)): remove it, or give another folder"
fi
# One check a node at a time (a Prolog beside HealthCheckProgram): the second waits for the
# first, which would else find its files removed and its GPUs timed by the other.
command -v flock >/dev/null || die "flock (util-linux) is missing: it keeps two checks of a node apart"
exec 9>>"$base/$host.lock"
flock -w 600 9 || die "$host: another health check has held $base/$host.lock for 10 minutes"
out="$base/$host"
# This node's latest run only: the folder made afresh, so the verdict reads no file but this
# run's.
rm -rf -- "$out"
mkdir -m 0755 -- "$out" || die "cannot make the folder $out"

# A signal to the check (a Prolog's time limit, an operator) stops the run it waits for
# too, rather than leaving perftest to time the GPUs of the job that follows.
# (Its line goes to the check's own stderr, fd 8: the trap runs inside the redirections of
# the command it interrupted.)
exec 8>&2
child=
stop() {
  # (`|| true`: the run it stops exits non-zero, which `set -e` would end the check on.)
  [ -z "$child" ] || { kill -TERM "$child" 2>/dev/null; wait "$child" 2>/dev/null || true; }
  echo "perftest-health: $host: stopped by SIG$1 before a verdict" >&8
  exit "$2"
}
trap 'stop TERM 143' TERM
trap 'stop INT 130' INT
trap 'stop HUP 129' HUP
# Runs perftest in the background and waits for it (a trap runs while `wait` waits).
perftest() {
  "$PERFTEST" "$@" &
  child=$!
  local rc=0
  wait "$child" || rc=$?
  child=
  return "$rc"
}
# What a perftest run's exit code `$1` says of its rows in `$2` (log `$3`): 0, rows to
# judge; 1 with a test that failed (a Vulkan error, a wrong result: `error` or `mismatch`
# rows), this node's GPU failed it: exit 1; any other (a crash, a signal, an output that
# failed), the run did not finish and its rows are not judged: exit 2.
finished() {
  local rc=$1 csv=$2 log=$3 failed
  [ -s "$csv" ] || die "$host: the run wrote no rows (perftest exited $rc; $log)"
  [ "$rc" -eq 0 ] && return 0
  failed=$(grep -cE ',(error|mismatch),' "$csv" || true)
  if [ "$rc" -eq 1 ] && [ "$failed" -gt 0 ]; then
    echo "perftest-health: $host: $failed test(s) of the profile failed on this node's GPUs (a Vulkan error or a wrong result; $log)"
    exit 1
  fi
  die "$host: the run did not finish (perftest exited $rc; $log): its rows are not judged"
}

rc=0
perftest "${args[@]}" --host "$host" --csv "$out/perftest.csv" >"$out/perftest.log" 2>&1 || rc=$?
finished "$rc" "$out/perftest.csv" "$out/perftest.log"
case $("$PERFTEST" fleet --help 2>&1 || true) in
  *--host*) ;;
  # clap's usage line names the binary as it was called (a link: `Usage: pt-old fleet …`).
  *" fleet [OPTIONS]"*) die "$PERFTEST's \`fleet\` has no --host (a perftest older than this check): not judged" ;;
  *) die "$PERFTEST has no \`fleet\` command (a perftest from before the fleet verdict): not judged" ;;
esac

# The history alone first: a degraded GPU in it would make every node's verdict degraded.
before=0
"$PERFTEST" fleet "${history[@]}" "${fleet_args[@]}" >"$out/history.txt" 2>&1 || before=$?
if [ "$before" -eq 1 ]; then
  echo "perftest-health: $host: not judged: the history is degraded itself ($out/history.txt)"
  exit 2
fi
# This node's verdict (`--host`): its code, and on stdout a line per degraded item of its
# GPUs, GPU missing (`--this-run`: one the node had in the history and lacks now), suspect
# item or GPU not judged; the whole verdict in verdict.txt and verdict.json.
judge() {
  verdict=0
  "$PERFTEST" fleet "${history[@]}" "$out" --this-run "$out" --host "$host" "${fleet_args[@]}" \
    --text "$out/verdict.txt" --json "$out/verdict.json" "$@" >"$out/node.txt" 2>"$out/verdict.log" || verdict=$?
}
judge --retest "$out/retest.txt"
# Confirm before calling (docs/fleet.md): a suspect item of this node's GPUs (slower than the
# fleet in this run only) is re-measured — its tests again, into confirm.csv beside the run —
# and the node judged again with both runs: degraded only if the re-measure is as slow.
if [ "$verdict" -eq 3 ]; then
  filters=()
  while IFS=$'\t' read -r on test; do
    [ "$on" = "$host" ] && filters+=(--filter "$test")
  done <"$out/retest.txt"
  if [ "${#filters[@]}" -gt 0 ]; then
    again=0
    perftest "${args[@]}" "${filters[@]}" --host "$host" --csv "$out/confirm.csv" >"$out/confirm.log" 2>&1 || again=$?
    finished "$again" "$out/confirm.csv" "$out/confirm.log"
    # The first verdict's files out of the folder the second one reads.
    mv "$out/verdict.json" "$out/verdict-first.json"
    mv "$out/verdict.txt" "$out/verdict-first.txt"
    mv "$out/node.txt" "$out/node-first.txt"
    rm -f "$out/retest.txt"
    judge
  fi
fi
said() { [ -s "$out/node.txt" ] && grep -q . "$out/node.txt"; }
case "$verdict" in
  0) ;;
  1)
    if said; then
      sed 's/^/perftest-health: /' "$out/node.txt"
    else
      # Degraded and nothing said (the verdict's stdout lost): the whole verdict, or its error.
      echo "perftest-health: $host: degraded (fleet exited 1; $out):"
      cat "$out/verdict.txt" "$out/verdict.log" 2>/dev/null || true
    fi
    ;;
  *)
    # Still suspect after the re-measure, or not judged: why, else the fleet's own error
    # (a usage error is its first lines: clap ends with a hint).
    echo "perftest-health: $host: not judged (fleet exited $verdict; $out):"
    if said; then
      sed 's/^/  /' "$out/node.txt"
    else
      head -n 5 "$out/verdict.log" 2>/dev/null | sed 's/^/  /' || true
    fi
    verdict=2
    ;;
esac
exit "$verdict"
