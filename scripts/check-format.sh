#!/usr/bin/env bash
# Checks that every C++ file in lib/, tests/ and demo/ is laid out as
# .clang-format says (clang-format 14, Debian 12's: other versions lay out
# some constructs differently). Lists the files that are not and exits 1.
# Usage: scripts/check-format.sh         check
#        scripts/check-format.sh --fix   reformat those files in place
set -euo pipefail
cd "$(dirname "$0")/.."

fix=0
case "${1:-}" in
  "") ;;
  --fix) fix=1 ;;
  *) echo "usage: $0 [--fix]" >&2; exit 2 ;;
esac

format=$(command -v clang-format-14 || command -v clang-format || true)
[ -n "$format" ] || { echo "check-format: clang-format not found (scripts/install-deps.sh core)" >&2; exit 2; }
"$format" --version | grep -q 'version 14\.' \
  || echo "check-format: warning: $("$format" --version) is not clang-format 14; results may differ from CI" >&2

mapfile -t files < <(find lib tests demo \( -name '*.cpp' -o -name '*.hpp' \) -type f | LC_ALL=C sort)
bad=()
for f in "${files[@]}"; do
  "$format" --style=file --dry-run -Werror "$f" > /dev/null 2>&1 || bad+=("$f")
done

if [ ${#bad[@]} -eq 0 ]; then
  echo "check-format: all ${#files[@]} files formatted"
  exit 0
fi
if [ $fix -eq 1 ]; then
  "$format" --style=file -i "${bad[@]}"
  echo "check-format: reformatted ${#bad[@]} of ${#files[@]} files:"
  printf '  %s\n' "${bad[@]}"
  exit 0
fi
lines=0
for f in "${bad[@]}"; do
  n=$("$format" --style=file "$f" | diff "$f" - | grep -c '^<' || true)
  printf '  %s (%d lines)\n' "$f" "$n"
  lines=$((lines + n))
done
echo "check-format: ${#bad[@]} of ${#files[@]} files not formatted ($lines lines would change);" \
  "fix with scripts/check-format.sh --fix" >&2
exit 1
