#!/usr/bin/env bash
# Reruns the commands that made a committed results folder: RESULTS_DIR/command.sh, the record
# of what ran there, sourced with these set (from the repository root):
#   $out   OUTDIR, created (default: target/reproduce/RESULTS_DIR; the committed folder itself
#          only when named)
#   $B     the perftest binary: $PERFTEST, default target/release/perftest (build it first)
#   X      the words of $PERFTEST_ARGS, an array: command files pass "${X[@]}" to every run, so
#          PERFTEST_ARGS="--device cpu --groups 4" rehearses a GPU folder on lavapipe, and a
#          --filter narrows it (filters add up: any match runs)
#   step NAME ARGS…   perftest ARGS, stdout + stderr to $out/NAME.txt, capped at $STEP_TIMEOUT
#                     seconds (default 60), exit code and wall time appended there and on stderr
#   wall ARGS…        ARGS under /usr/bin/time -f "wall %e s"
# and the words after OUTDIR as the command file's arguments ($1…).
# Where no Vulkan loader is installed (a bare GPU machine) and .gl/ holds the loader's .deb
# packages (libvulkan1, vulkan-validationlayers, libglvnd's), they are installed first (dpkg,
# as root or through sudo); docs/reproducing.md says more.
#
# Usage: scripts/reproduce.sh [--dry-run] RESULTS_DIR [OUTDIR [ARGS…]]
#   --dry-run   print every command the folder records (perftest, nvidia-smi, python3, timeout,
#               sleep, pkill), with $out shown as OUTDIR, and run none of them
set -uo pipefail
dry=
if [ "${1:-}" = --dry-run ]; then dry=1; shift; fi
given=${1:?usage: scripts/reproduce.sh [--dry-run] RESULTS_DIR [OUTDIR [ARGS…]]}
shift
dir=$given
here=$(pwd)
cd "$(dirname "$0")/.." || exit 1
root=$(pwd)
case $dir in /*) ;; *) dir=$here/$dir ;; esac
dir=$(cd "$dir" 2> /dev/null && pwd) || { echo "reproduce: no folder $given" >&2; exit 2; }
command_file=$dir/command.sh
if [ ! -f "$command_file" ]; then
  echo "reproduce: $dir has no command.sh (its README or results/README.md says how it was made)" >&2
  exit 2
fi
rel=${dir#"$root"/}
outdir=${1:-$root/target/reproduce/$rel}
[ $# -gt 0 ] && shift
case $outdir in /*) ;; *) outdir=$here/$outdir ;; esac
B=${PERFTEST:-target/release/perftest}
case $B in /* | target/release/perftest) ;; */*) B=$here/$B ;; esac
# Words as a shell groups them (quotes, backslashes), nothing in them run or expanded: as the
# Slurm scripts read theirs.
X=()
if [ -n "${PERFTEST_ARGS:-}" ]; then
  words=$(printf '%s\n' "$PERFTEST_ARGS" | xargs -r printf '%s\n') ||
    { echo "reproduce: PERFTEST_ARGS: not words (an unmatched quote?): $PERFTEST_ARGS" >&2; exit 2; }
  [ -z "$words" ] || mapfile -t X <<< "$words"
fi
# BIN is a command file's own per-run choice of build (`BIN=$OLD timed …`), never the
# environment's.
unset BIN

step() {
  local name=$1 t0; shift
  t0=$(date +%s%N)
  timeout "${STEP_TIMEOUT:-60}" "$B" "$@" > "$out/$name.txt" 2>&1
  local rc=$?
  echo "exit $rc, wall $(( ($(date +%s%N) - t0) / 1000000 )) ms" >> "$out/$name.txt"
  echo "$name: exit $rc, $(( ($(date +%s%N) - t0) / 1000000 )) ms" >&2
}
wall() { /usr/bin/time -f "wall %e s" "$@"; }

bash -n "$command_file" || { echo "reproduce: $command_file does not parse" >&2; exit 2; }
if [ -n "$dry" ]; then
  # Every external command a command file runs is replaced by a stub that prints it (to a log,
  # through fd 3, which no redirection in the command file touches) and does nothing; $out is a
  # scratch folder, shown as OUTDIR.
  scratch=$(mktemp -d)
  trap 'rm -rf "$scratch"' EXIT
  mkdir -p "$scratch/bin" "$scratch/out"
  # words ARGS…: prints the command line as one would type it (quotes only where needed).
  cat > "$scratch/words" <<'EOF'
words() {
  local w line= q="'"
  for w in "$@"; do
    if [[ $w =~ ^[A-Za-z0-9_./:=,+%@-]+$ ]]; then line+=" $w"; else line+=" $q${w//$q/$q\\$q$q}$q"; fi
  done
  printf '%s\n' "${line# }" >&3
}
EOF
  stub() { # NAME [BODY]: an executable that prints its command line, then runs BODY
    printf '#!/usr/bin/env bash\n. %q\nwords %q "$@"\n%s\n' "$scratch/words" "$1" "${2:-}" \
      > "$scratch/bin/$1"
    chmod +x "$scratch/bin/$1"
  }
  stub perftest
  stub python3
  stub pkill
  stub sleep
  # sm_clock reads one number; 0 MHz ends an "idle" wait at once.
  stub nvidia-smi '[[ "$*" == *noheader* ]] && echo 0; exit 0'
  # timeout DURATION CMD…: runs CMD (itself a stub) unless it is a shell loop, printed whole.
  printf '#!/usr/bin/env bash\n. %q\n%s\n' "$scratch/words" \
    'if [ "$2" = bash ]; then words timeout "$@"; exit 0; fi; shift; exec "$@"' > "$scratch/bin/timeout"
  B=$scratch/bin/perftest
  # Another build a command file runs, named in the environment (OLD, BEFORE): a stub too,
  # printed as `perftest-old …`, never run.
  for v in OLD BEFORE; do
    if [ -n "${!v:-}" ]; then
      stub "perftest-${v,,}"
      printf -v "$v" '%s' "$scratch/bin/perftest-${v,,}"
      export "${v?}"
    fi
  done
  PATH=$scratch/bin:$PATH
  # Show the steps a command file runs only where the validation layers are installed.
  export VK_LAYER_PATH=${VK_LAYER_PATH:-/usr/share/vulkan/explicit_layer.d}
  out=$scratch/out
  exec 3> "$scratch/log"
  # A command file's last command may fail harmlessly (a kill of a stub long gone): only a
  # file that does not parse, or records no perftest run, fails the dry run.
  (. "$command_file" "$@") > /dev/null 2>&1
  exec 3>&-
  # Each line with the scratch paths named as the reader knows them (replaced as text: an
  # OUTDIR holding `|` or `&` is printed as it is).
  while IFS= read -r line; do
    line=${line//"$scratch/out"/"$outdir"}
    line=${line//"$scratch/bin/"/}
    printf '%s\n' "$line"
  done < "$scratch/log"
  grep -qE '^perftest(-old|-before)? ' "$scratch/log" || { echo "reproduce: $rel records no perftest run" >&2; exit 1; }
  exit 0
fi

# grep reads all of ldconfig's list (not -q): under pipefail, -q quitting at the first match
# left ldconfig a SIGPIPE that failed the test at random (a warm H100 ran one folder, then
# found "no Vulkan loader" for the next).
if ! ldconfig -p 2> /dev/null | grep 'libvulkan\.so\.1 ' > /dev/null && ls .gl/*.deb > /dev/null 2>&1; then
  echo "reproduce: no Vulkan loader; installing .gl/*.deb" >&2
  sudo=; [ "$(id -u)" -ne 0 ] && sudo=sudo
  # Extracted, not installed: libglvnd's packages depend on Mesa's GL drivers, which a GPU
  # machine does without, and dpkg -i leaves them unconfigured (a fresh H100 got no loader).
  for f in .gl/*.deb; do $sudo dpkg -x "$f" /; done
  $sudo ldconfig
  ldconfig -p | grep 'libvulkan\.so\.1 ' > /dev/null ||
    { echo "reproduce: extracting .gl/*.deb installed no Vulkan loader" >&2; exit 1; }
fi
[ -x "$B" ] || { echo "reproduce: no $B (cargo build --release first)" >&2; exit 2; }
out=$outdir
mkdir -p -- "$out" || { echo "reproduce: cannot make the folder $out" >&2; exit 2; }
echo "reproduce: $rel → $out ($("$B" --version 2>&1 | head -1))" >&2
. "$command_file" "$@"
