#!/usr/bin/env bash
# Runs clang-tidy (14, Debian 12's) with .clang-tidy over the library's
# sources, lib/src/*.cpp (and through them the library's headers), with the
# flags of a CMake build's compile_commands.json. Exits 1 on any finding that
# .clang-tidy's WarningsAsErrors names; other findings are printed only.
# Usage: scripts/tidy.sh [BUILD_DIR]   (default build/tidy, configured here
#        if it has no compile_commands.json; no compilation is needed)
# About 3 minutes on 2 cores. The Highway sources (lib/src/kernels/*.cpp and
# lib/src/water/*_simd.cpp) are parsed once per SIMD target they re-include
# themselves for; they take the longest. So they are checked for AVX-512,
# AVX2 and the scalar fallback only (HWY_DISABLED_TARGETS): SSE4 and SSSE3
# compile the same source as AVX2 (no `#if` names them), 4 lanes instead of 8.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/tidy}
jobs=$(nproc)

tidy=$(command -v clang-tidy-14 || command -v clang-tidy || true)
[ -n "$tidy" ] || { echo "tidy: clang-tidy not found (scripts/install-deps.sh core)" >&2; exit 2; }

if [ ! -f "$build/compile_commands.json" ]; then
  mkdir -p "$build"
  cmake -S . -B "$build" -DCMAKE_EXPORT_COMPILE_COMMANDS=ON -DKEEL_BUILD_TESTS=OFF > "$build.configure.log" 2>&1 \
    || { cat "$build.configure.log"; exit 1; }
fi

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# One clang-tidy per file, $jobs at a time; each writes its own log, named
# by the file's path under $out (lib/src has files of the same name in
# several folders: kernels/cut.cpp and substep/cut.cpp).
find lib/src -name '*.cpp' | LC_ALL=C sort \
  | xargs -P "$jobs" -I{} sh -c 'mkdir -p "$4/$(dirname "$3")" && "$1" -p "$2" --quiet \
        "--extra-arg=-DHWY_DISABLED_TARGETS=(HWY_SSSE3|HWY_SSE4)" "$3" > "$4/$3.log" 2>&1; echo $? > "$4/$3.rc"' \
      _ "$tidy" "$build" {} "$out"

failed=0
for rc in $(find "$out" -name '*.rc'); do
  [ "$(cat "$rc")" = 0 ] || failed=1
done
# Findings, each once (a header's are reported by every source that includes it).
find "$out" -name '*.log' -print0 | LC_ALL=C sort -z | xargs -0 cat | grep -vE '^[0-9]+ warnings? (and [0-9]+ errors? )?generated\.$' > "$out/all" || true
warnings=$(grep -E '^/.*: (warning|error): ' "$out/all" | sort -u || true)  # grep fails when there is none
count=$(printf '%s' "$warnings" | grep -c . || true)
errors=$(printf '%s' "$warnings" | grep -c ': error: ' || true)
[ "$count" -eq 0 ] || { cat "$out/all"; echo; echo "tidy: findings, each once:"; printf '%s\n' "$warnings"; }
files=$(find lib/src -name '*.cpp' | wc -l)
if [ $failed -ne 0 ]; then
  echo "tidy: $files files, $count findings, $errors of them errors (WarningsAsErrors) or clang-tidy failed" >&2
  exit 1
fi
echo "tidy: $files files, $count findings (warnings only)"
