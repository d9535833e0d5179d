#!/usr/bin/env bash
# Regenerates spirv/: the disassembly of every kernel permutation, exactly as build.rs compiles it.
set -euo pipefail
cd "$(dirname "$0")/.."
PERFTEST_UPDATE_SPIRV=1 cargo test --release --test integration spirv::committed_disassembly_is_current
find spirv -name "*.spvasm" | wc -l | xargs echo "spirv/: kernels written:"
