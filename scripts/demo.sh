#!/usr/bin/env bash
# Builds and runs the Ogre harbour demo (docs/demo.md).
#   scripts/demo.sh [keel_demo options...]
# Installs the Debian packages it needs (scripts/install-deps.sh demo), builds
# into build/demo-release, then:
#   - with a display ($DISPLAY set): opens the demo in a window;
#   - without one: runs it headless under Xvfb for five simulated seconds,
#     writes build/harbour.png and prints the summary (boats, contacts with
#     docks and between boats, mean draft).
# Options given are passed to keel_demo (try: scripts/demo.sh --help).
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh demo

build=build/demo-release
mkdir -p build
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DKEEL_BUILD_DEMO=ON -DKEEL_BUILD_TESTS=OFF \
  > build/demo-configure.log 2>&1 || { cat build/demo-configure.log; exit 1; }
cmake --build "$build" -j "$(nproc)" --target keel_demo

demo="$build/demo/keel_demo"
if [ -n "${DISPLAY:-}" ]; then
  exec "$demo" "$@"
fi
echo "demo.sh: no display; running headless under Xvfb (5 s), screenshot build/harbour.png"
exec "$demo" --headless --seconds 5 --screenshot build/harbour.png "$@"
