#!/usr/bin/env bash
# Installs the Debian 12 packages Keel needs. One list, used by both set-up
# commands:
#   scripts/install-deps.sh core   library, tests, benchmarks, format and tidy checks (assimp:
#                                  the examples of docs/integration.md and their tests; python3:
#                                  scripts/check-citations.py, run by ctest; clang-14: test.sh's
#                                  clang build; ccache: test.sh's compilations)
#   scripts/install-deps.sh demo   core plus the Ogre harbour demo and Xvfb
# Uses sudo when not root. Installs only what is missing, so a second run is
# quick and needs no network.
set -euo pipefail

core=(build-essential cmake ninja-build pkg-config git libbullet-dev libtbb-dev libhwy-dev libgtest-dev libgmock-dev libbenchmark-dev
      libassimp-dev libmeshoptimizer-dev clang-format-14 clang-tidy-14 python3 clang-14 ccache)
demo=(libogre-1.12-dev libboost-program-options-dev libimgui-dev xvfb xauth libgl1-mesa-dri)

case "${1:-core}" in
  core) wanted=("${core[@]}") ;;
  demo) wanted=("${core[@]}" "${demo[@]}") ;;
  *) echo "usage: $0 [core|demo]" >&2; exit 2 ;;
esac

missing=()
for p in "${wanted[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

sudo=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "install-deps: not root and no sudo; install: ${missing[*]}" >&2; exit 1; }
  sudo=(sudo)
fi
echo "install-deps: installing ${missing[*]}"
"${sudo[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
