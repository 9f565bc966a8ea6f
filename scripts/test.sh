#!/usr/bin/env bash
# Builds Keel and passes every test: the single-precision build (library,
# tests, the outside consumer project, the headless demo tests) and the
# double-precision build (library and tests). Installs what it needs first.
# Usage: scripts/test.sh        (from anywhere; builds under build/)
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)

scripts/install-deps.sh demo

build() {  # build DIR [cmake options...]
  local dir=$1; shift
  cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release -DKEEL_WARNINGS_AS_ERRORS=ON "$@" > "$dir.configure.log" 2>&1 \
    || { cat "$dir.configure.log"; return 1; }
  cmake --build "$dir" -j "$jobs"
  ctest --test-dir "$dir" --output-on-failure -j "$jobs" --timeout 900
}

mkdir -p build
echo "== single precision (float), with the demo"
build build/float -DKEEL_BUILD_DEMO=ON
echo "== double precision (bullet-float64)"
build build/double -DKEEL_DOUBLE_PRECISION=ON
