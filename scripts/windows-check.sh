#!/usr/bin/env bash
# The Windows build, proven on Linux (CI runs this from .ci/run): cross-builds perftest.exe for
# x86_64-pc-windows-gnu, runs it under wine on lavapipe (wine's Vulkan forwards to the Linux
# loader) and checks what a Windows user gets: --version, --list-devices, the original suite and
# every family verified,
# a default run's CSV (138 rows, every status ok, the original's names byte for byte) and JSON
# written through drive-letter paths with backslashes, the NUL device as an output, and Ctrl-C
# keeping every finished row. Installs what it needs and is missing (mingw-w64's C compiler,
# wine, Xvfb, the Rust target), as scripts/setup.sh does. Exits non-zero on the first failure.
set -euo pipefail
cd "$(dirname "$0")/.."
TARGET=x86_64-pc-windows-gnu
say() { echo "windows-check: [${SECONDS}s] $*" >&2; }
fail() { say "FAILED: $*"; exit 1; }

if [ -z "${PERFTEST_WINDOWS_CHECK_UNDER_X:-}" ]; then
  have() { command -v "$1" >/dev/null 2>&1; }
  missing=()
  have x86_64-w64-mingw32-gcc || missing+=(gcc-mingw-w64-x86-64)
  have wine || missing+=(wine wine64)
  have xvfb-run || missing+=(xvfb xauth)
  if [ ${#missing[@]} -gt 0 ]; then
    have apt-get || fail "please install: ${missing[*]}"
    say "installing ${missing[*]}"
    sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update -qq
    $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
  rustup target list --installed | grep -x "$TARGET" > /dev/null || rustup target add "$TARGET"
  say "building perftest.exe ($TARGET)"
  cargo build --release --target "$TARGET"
  # One X server for every wine start (wine's graphics driver needs a display, or its Vulkan
  # reports 1.0.0 and perftest exits 3).
  PERFTEST_WINDOWS_CHECK_UNDER_X=1 exec xvfb-run -a "$0" "$@"
fi

dir=$(mktemp -d "${TMPDIR:-/tmp}/perftest-windows.XXXXXX")
cleanup() {
  pkill -f "$dir/perftest.exe" 2>/dev/null || true
  wineserver -k 2>/dev/null || true
  rm -rf "$dir"
}
trap cleanup EXIT
export WINEPREFIX="$dir/prefix" WINEDEBUG=-all
cp "target/$TARGET/release/perftest.exe" "$dir/"
x86_64-w64-mingw32-gcc -O2 -shared -Wl,--kill-at -o "$dir/bcryptprimitives.dll" \
  scripts/windows/bcryptprimitives.c -ladvapi32
wine wineboot --init >/dev/null 2>&1 || true
win() { printf 'Z:%s' "${1//\//\\}"; }   # a Linux path as Windows sees it: Z:\tmp\...
exe() { wine "$dir/perftest.exe" "$@"; }

version=$(exe --version | tr -d '\r')
[ "$version" = "perftest $(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -1)" ] ||
  fail "--version printed '$version'"
say "--version: $version"

exe --list-devices > "$dir/devices.txt" || fail "--list-devices exited $?"
grep -q llvmpipe "$dir/devices.txt" || fail "--list-devices lists no llvmpipe: $(cat "$dir/devices.txt")"
say "--list-devices: $(grep -m1 llvmpipe "$dir/devices.txt" | tr -d '\r')"

# Verified against the CPU reference: the original suite in full (every typed-buffer and
# texture format), and every family of every suite through its first two tests (every kernel
# template, resource kind and check; the rehearsal hook, docs/testing.md). The Linux tests
# verify every test of every suite; the exe runs the same code and SPIR-V.
exe --device cpu --suite original --verify --groups 8 > "$dir/verify.out" 2> "$dir/verify.err" ||
  fail "--suite original --verify exited $?: $(tail -3 "$dir/verify.err")"
summary=$(grep -a "ok, .* unsupported, .* failed" "$dir/verify.err" | tr -d '\r')
say "--suite original --verify --groups 8: $summary"
[[ "$summary" == *"138 ok, 0 unsupported, 0 failed" ]] || fail "verification failed"
PERFTEST_FIRST_TESTS=2/family exe --device cpu --suite all --verify --groups 8 \
  --csv "$(win "$dir/verify.csv")" > "$dir/families.out" 2> "$dir/families.err" ||
  fail "--suite all --verify (2 per family) exited $?: $(tail -3 "$dir/families.err")"
summary=$(grep -a "ok, .* unsupported, .* failed" "$dir/families.err" | tr -d '\r')
say "--suite all --verify --groups 8, the first 2 tests of each family: $summary"
[[ "$summary" == *" 0 failed" ]] || fail "verification failed"

# A default run, outputs through drive-letter paths with backslashes.
mkdir -p "$dir/out dir"
exe --device cpu --groups 16 --samples 3 --csv "$(win "$dir/out dir/default.csv")" \
  --json "$(win "$dir/out dir/default.json")" > "$dir/default.out" 2> "$dir/default.err" ||
  fail "the default run exited $?: $(tail -3 "$dir/default.err")"
say "default run: $(grep -a "ok, .* unsupported, .* failed" "$dir/default.err" | tr -d '\r')"
exe --list-tests | tr -d '\r' > "$dir/names.txt"
python3 - "$dir/out dir/default.csv" "$dir/out dir/default.json" "$dir/names.txt" <<'PY' || fail "the default run's outputs"
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="", encoding="utf-8")))
names = open(sys.argv[3], encoding="utf-8").read().splitlines()
assert len(rows) == 138, f"{len(rows)} rows"
# In run order, except blocks timed again at the end of the run: by test_index, the original's.
rows.sort(key=lambda r: int(r["test_index"]))
assert [r["test"] for r in rows] == names, "test names differ from the original's"
bad = [(r["test"], r["status"], r["reason"]) for r in rows if r["status"] != "ok"]
assert not bad, bad
doc = json.load(open(sys.argv[2], encoding="utf-8"))
assert len(doc["results"]) == 138 and not doc["interrupted"]
print("windows-check: default CSV: 138 rows, all ok, names byte for byte; JSON: 138 results", file=sys.stderr)
PY

# NUL, Windows' null device, as both outputs: accepted, and nothing written in the directory.
mkdir -p "$dir/cwd"
(cd "$dir/cwd" && exe --device cpu --filter "Buffer<R8>" --groups 4 --samples 2 --csv NUL --json NUL \
  > "$dir/nul.out" 2> "$dir/nul.err") || fail "--csv NUL --json NUL exited $?: $(tail -3 "$dir/nul.err")"
[ -z "$(ls -A "$dir/cwd")" ] || fail "--csv NUL --json NUL left files: $(ls -A "$dir/cwd")"
say "--csv NUL --json NUL: accepted, nothing written"

# Ctrl-C (wine turns SIGINT into CTRL_C_EVENT): every finished row kept, the JSON written, 130.
exe --device cpu --suite original --groups 32 --samples 30 --csv "$(win "$dir/partial.csv")" \
  --json "$(win "$dir/partial.json")" > "$dir/partial.out" 2> "$dir/partial.err" &
run=$!
for _ in $(seq 1 120); do
  [ -f "$dir/partial.csv" ] && [ "$(wc -l < "$dir/partial.csv")" -ge 5 ] && break
  sleep 0.5
done
pkill -INT -f "perftest.exe --device cpu --suite original --groups 32" || fail "no run to interrupt"
code=0
wait $run || code=$?
[ "$code" -eq 130 ] || fail "Ctrl-C: exit $code, not 130: $(tail -3 "$dir/partial.err")"
grep -aq "interrupted (Ctrl-C); every finished test is in the output files" "$dir/partial.err" ||
  fail "Ctrl-C: no message: $(tail -3 "$dir/partial.err")"
python3 - "$dir/partial.csv" "$dir/partial.json" <<'PY' || fail "Ctrl-C: the outputs"
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="", encoding="utf-8")))
assert len(rows) >= 3, rows
# The row in progress is written `interrupted`. On a noisy machine the rows can reach the file
# only at the end (blocks deferred for a drift re-check), and Ctrl-C then lands while the end's
# re-checks run, with no test in progress: every row is a finished one (CI saw this once).
last = rows[-1]
if last["status"] == "interrupted":
    assert "run interrupted (Ctrl-C)" in last["reason"], last["reason"]
    rows_done = rows[:-1]
    seen = f"{len(rows_done)} finished rows and the interrupted one"
else:
    rows_done = rows
    seen = f"{len(rows_done)} finished rows (Ctrl-C came in the end-of-run re-checks: no test in progress)"
assert all(r["status"] == "ok" for r in rows_done), [r["status"] for r in rows_done]
doc = json.load(open(sys.argv[2], encoding="utf-8"))
assert doc["interrupted"] and len(doc["results"]) == len(rows)
print(f"windows-check: Ctrl-C: exit 130, {seen} in the CSV and the JSON", file=sys.stderr)
PY
say "passed"
