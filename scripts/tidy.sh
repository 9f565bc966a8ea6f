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
# The SIMD sources for AVX-512, AVX2 and the scalar fallback (above).
define="-DHWY_DISABLED_TARGETS=(HWY_SSSE3|HWY_SSE4)"
# A file's result is kept under the key of everything it depends on
# (scripts/tidy_key.py: the tool, .clang-tidy, the flags, the preprocessed
# source and headers); a file whose key is cached is not checked again. Only
# clean results are kept. KEEL_TIDY_CACHE= (empty) turns the cache off;
# entries unused for 30 days are dropped.
cache=${KEEL_TIDY_CACHE-${XDG_CACHE_HOME:-$HOME/.cache}/keel-tidy}
clangxx=$(command -v clang++-14 || command -v clang++ || true)
[ -n "$clangxx" ] || cache=""
if [ -n "$cache" ]; then
  mkdir -p "$cache"
  find "$cache" -type f -mtime +30 -delete
fi
# check FILE: one clang-tidy, writing its log and exit status under $out,
# named by the file's path (lib/src has files of the same name in several
# folders: kernels/cut.cpp and substep/cut.cpp).
check() {
  local file=$1 log="$out/$1.log" rc="$out/$1.rc" key=""
  mkdir -p "$(dirname "$log")"
  if [ -n "$cache" ] && key=$(python3 scripts/tidy_key.py "$build" "$file" "$tidy" "$clangxx" "$define") \
      && [ -f "$cache/$key.rc" ]; then
    sed "s|<root>|$PWD|g" "$cache/$key.log" > "$log"
    cp "$cache/$key.rc" "$rc"
    touch "$cache/$key.rc" "$cache/$key.log" "$out/$1.cached"
    return
  fi
  "$tidy" -p "$build" --quiet "--extra-arg=$define" "$file" > "$log" 2>&1 && echo 0 > "$rc" || echo $? > "$rc"
  if [ -n "$key" ] && [ "$(cat "$rc")" = 0 ]; then
    sed "s|$PWD|<root>|g" "$log" > "$cache/$key.log"
    cp "$rc" "$cache/$key.rc"
  fi
}
export -f check
export build tidy out define cache clangxx
# $jobs at a time.
find lib/src -name '*.cpp' | LC_ALL=C sort | xargs -P "$jobs" -I{} bash -c 'check "$1"' _ {}

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
cached=$(find "$out" -name '*.cached' | wc -l)
echo "tidy: $files files ($cached of them unchanged since a clean check), $count findings (warnings only)"
