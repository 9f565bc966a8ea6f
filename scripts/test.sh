#!/usr/bin/env bash
# Builds Keel and passes every test and check, in stages:
#   format      every C++ file as .clang-format lays it out (check-format.sh)
#   float       single-precision Release build: library, tests, the outside
#               consumer project, the headless demo tests
#   double      double-precision Release build (bullet-float64): library, tests
#   tidy        clang-tidy over lib/src (tidy.sh, with the float build's
#               compile_commands.json); every finding fails it, functions
#               over 80 lines included
#   clang       single-precision Release build with clang 14 (the others use
#               GCC): library, tests, consumer project
#   sanitizers  Debug build (asserts on) with AddressSanitizer and
#               UndefinedBehaviorSanitizer: library, tests, consumer project
# Installs what it needs first. Every stage runs even when an earlier one
# fails; each prints one `== stage: ...` summary line, all of them are
# repeated at the end, and the script exits 1 if any stage failed.
# About 24 minutes on 2 cores from nothing, about 7 with the caches an earlier run left
# (ccache, clang-tidy's results: docs/testing.md).
# Usage: scripts/test.sh        (from anywhere; builds under build/)
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)

scripts/install-deps.sh demo

mkdir -p build
summaries=()
failed=0
start_all=$SECONDS

# stage NAME COMMAND...: runs COMMAND (its output shown and kept in
# build/<NAME's first word>.log) and records `== NAME: <last line COMMAND printed that starts
# with "summary: "> (N s)`, or FAILED.
stage() {
  local name=$1; shift
  local start=$SECONDS status=0 log="build/${name%% *}.log"
  echo "== $name"
  "$@" 2>&1 | tee "$log" || status=$?
  local summary
  summary=$(grep -E '^summary: ' "$log" | tail -1 | sed 's/^summary: //' || true)
  [ -n "$summary" ] || summary="no summary"
  [ $status -eq 0 ] || { summary="FAILED: $summary"; failed=1; }
  summaries+=("== $name: $summary ($((SECONDS - start)) s)")
  echo "${summaries[-1]}"
}

# ctest_summary DIR [ctest options...]: runs the tests, then prints their
# "N% tests passed" line as the stage's summary.
ctest_summary() {
  local dir=$1; shift
  local status=0
  ctest --test-dir "$dir" --output-on-failure -j "$jobs" --timeout 900 "$@" | tee "$dir.ctest.log" || status=$?
  echo "summary: $(grep -E '^[0-9]+% tests passed' "$dir.ctest.log" || echo 'tests did not run')"
  return $status
}

# ccache keeps each compilation's object under the key of its preprocessed
# source and flags, so a second run recompiles only what changed. The
# repository's root is the base directory (paths under it are made relative)
# and the working directory is left out of the key, so that two checkouts at
# different paths share their objects (as scripts/tidy.sh's cache does); the
# test sources' precompiled headers need the two sloppinesses, and a fresh
# clone's new modification times the other two. Depend mode takes the
# headers from the compiler's own dependency file (Ninja asks for one) rather
# than running the preprocessor again on a miss. ccache's own cache
# directory and size are the user's (ccache's configuration).
launcher=()
if command -v ccache > /dev/null; then
  export CCACHE_BASEDIR=$PWD CCACHE_NOHASHDIR=1 CCACHE_DEPEND=1
  export CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
fi

# Ninja: it compiles a target's sources while the targets it links are still
# being built, where Make builds them in turn; on 2 cores the float build
# takes three quarters of Make's time. A tree configured for another
# generator (an older checkout's) is configured afresh.
build() {  # build DIR [cmake options...]
  local dir=$1; shift
  if [ -f "$dir/CMakeCache.txt" ] && ! grep -qx 'CMAKE_GENERATOR:INTERNAL=Ninja' "$dir/CMakeCache.txt"; then
    rm -rf "$dir"
  fi
  cmake -G Ninja -S . -B "$dir" -DKEEL_WARNINGS_AS_ERRORS=ON "${launcher[@]}" "$@" > "$dir.configure.log" 2>&1 \
    || { cat "$dir.configure.log"; echo "summary: configuration failed"; return 1; }
  cmake --build "$dir" -j "$jobs" || { echo "summary: build failed"; return 1; }
}

format() {
  local status=0
  scripts/check-format.sh 2>&1 | tee build/format.out || status=$?
  echo "summary: $(tail -1 build/format.out)"
  return $status
}

float() {
  build build/float -DCMAKE_BUILD_TYPE=Release -DKEEL_BUILD_DEMO=ON -DCMAKE_EXPORT_COMPILE_COMMANDS=ON \
    && ctest_summary build/float
}

# The benchmarks are built and smoke-run in the float and clang stages only:
# they measure, and what they run the tests check in every stage.
double() {
  build build/double -DCMAKE_BUILD_TYPE=Release -DKEEL_DOUBLE_PRECISION=ON -DKEEL_BUILD_BENCHMARKS=OFF \
    && ctest_summary build/double
}

tidy() {
  local status=0
  # Only the configuration's compile_commands.json is needed.
  [ -f build/float/compile_commands.json ] \
    || cmake -G Ninja -S . -B build/float -DCMAKE_EXPORT_COMPILE_COMMANDS=ON > build/float.configure.log 2>&1
  scripts/tidy.sh build/float 2>&1 | tee build/tidy.out || status=$?
  echo "summary: $(tail -1 build/tidy.out)"
  return $status
}

# A second compiler: its warnings (-Werror) and its reading of the standard,
# and the determinism constants, which hold under clang too (-ffp-contract=off:
# the library's bits do not depend on the compiler), on Highway's portable
# EMU128 target among the others (GCC 12.2 builds SCALAR in its place). Not merged into the
# sanitizer build: clang 14 instruments the SIMD kernels with AddressSanitizer
# and UndefinedBehaviorSanitizer together many times slower than GCC
# (kernels/cut.cpp at -O1: over 4 minutes of CPU against GCC's 16 s), where a
# Release build costs what GCC's does (3.1 s against 3.6 s).
clang_release() {
  build build/clang -DCMAKE_CXX_COMPILER=clang++-14 -DCMAKE_BUILD_TYPE=Release && ctest_summary build/clang
}

# -O1: at -O0 the SIMD kernels and the long simulations (Storm, Determinism)
# are several times slower under ASan; -O1 keeps the stage near 6 minutes.
# -g1: line tables only, which is what the sanitizers' reports print (file
# and line of each frame); full -g made the SIMD kernels' compile 2.7 times
# as long (kernels/cut.cpp: 43 s against 16 s), for variables no report shows.
# The determinism hashes hold here too: the library is built with
# -ffp-contract=off, so its bits do not depend on the optimisation level.
# No benchmarks (as in the double stage): under ASan their smoke runs took
# half a minute and checked nothing the tests do not.
sanitizers() {
  build build/sanitize -DCMAKE_BUILD_TYPE=Debug "-DCMAKE_CXX_FLAGS_DEBUG=-g1 -O1" \
    -DKEEL_SANITIZE=address,undefined -DKEEL_BUILD_BENCHMARKS=OFF || return 1
  ASAN_OPTIONS=detect_leaks=1:check_initialization_order=1:strict_init_order=1 \
  UBSAN_OPTIONS=print_stacktrace=1 \
    ctest_summary build/sanitize
}

stage format format || true
stage float float || true
stage double double || true
stage tidy tidy || true
stage clang clang_release || true
stage "sanitizers (address, undefined)" sanitizers || true

echo
echo "== summary (total $((SECONDS - start_all)) s)"
printf '%s\n' "${summaries[@]}"
exit $failed
