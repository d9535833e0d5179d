#!/usr/bin/env bash
# Release archives, into dist/: perftest-<version>-x86_64-pc-windows-gnu.zip (perftest.exe,
# README.md, docs/, LICENSE) and perftest-<version>-x86_64-unknown-linux-gnu.tar.gz (perftest,
# README.md, docs/, LICENSE), with SHA256SUMS. The Windows exe is cross-built with mingw-w64 (the
# toolchain scripts/windows-check.sh installs and proves under wine).
# Usage: scripts/release.sh            (from anywhere; writes <repo>/dist/)
set -euo pipefail
cd "$(dirname "$0")/.."
version=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -1)
command -v x86_64-w64-mingw32-gcc >/dev/null 2>&1 ||
  { echo "release: the Windows build needs mingw-w64 (apt install gcc-mingw-w64-x86-64)" >&2; exit 1; }
rustup target list --installed | grep -x x86_64-pc-windows-gnu > /dev/null || rustup target add x86_64-pc-windows-gnu
cargo build --release
cargo build --release --target x86_64-pc-windows-gnu
rm -rf dist && mkdir -p dist
stage() { # NAME BINARY: a folder NAME holding BINARY, the README, its docs/ and the licence
  mkdir -p "dist/$1"
  cp "$2" README.md LICENSE "dist/$1/"
  cp -r docs "dist/$1/"
}
win=perftest-$version-x86_64-pc-windows-gnu
linux=perftest-$version-x86_64-unknown-linux-gnu
stage "$win" target/x86_64-pc-windows-gnu/release/perftest.exe
stage "$linux" target/release/perftest
python3 - "$win" <<'PY'
import os, sys, zipfile
name = sys.argv[1]
with zipfile.ZipFile(f"dist/{name}.zip", "w", zipfile.ZIP_DEFLATED) as z:
    for top, dirs, files in os.walk(f"dist/{name}"):
        dirs.sort()
        for f in sorted(files):
            path = os.path.join(top, f)
            z.write(path, os.path.join(name, os.path.relpath(path, f"dist/{name}")))
PY
tar -C dist -czf "dist/$linux.tar.gz" "$linux"
rm -rf "dist/$win" "dist/$linux"
(cd dist && sha256sum "$win.zip" "$linux.tar.gz" > SHA256SUMS)
echo "release: dist/$win.zip, dist/$linux.tar.gz, dist/SHA256SUMS"
cat dist/SHA256SUMS
