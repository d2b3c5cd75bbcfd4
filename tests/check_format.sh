#!/usr/bin/env bash
# Checks that every tracked C++ source follows .clang-format (clang-format --dry-run -Werror).
# Prints each deviation and exits 1 when there is one; exits 0 with a message when clang-format
# is not installed (apt-get install clang-format). Fix deviations with
#   clang-format -i FILE...        (or: git clang-format, for the lines a change touches)
# Usage: tests/check_format.sh [FILE...]   (default: every tracked *.cpp, *.h, *.hpp)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$here"

clang_format="${CLANG_FORMAT:-}"
if [ -z "$clang_format" ]; then
  for c in clang-format clang-format-16 clang-format-15 clang-format-14; do
    if command -v "$c" >/dev/null 2>&1; then clang_format="$c"; break; fi
  done
fi
if [ -z "$clang_format" ]; then
  echo "check_format: SKIPPED: clang-format is not installed (apt-get install clang-format)"
  exit 0
fi

if [ $# -gt 0 ]; then
  files=("$@")
elif git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mapfile -t files < <(git ls-files '*.cpp' '*.h' '*.hpp')
else
  mapfile -t files < <(find core app render resources tests -name '*.cpp' -o -name '*.h' -o -name '*.hpp')
fi

bad=()
for f in "${files[@]}"; do
  [ -f "$f" ] || continue
  if ! "$clang_format" --dry-run -Werror --style=file "$f" >/dev/null 2>&1; then bad+=("$f"); fi
done
if [ ${#bad[@]} -eq 0 ]; then
  echo "check_format: ${#files[@]} files follow .clang-format ($("$clang_format" --version | head -1))"
  exit 0
fi
for f in "${bad[@]}"; do
  "$clang_format" --dry-run -Werror --style=file "$f" 2>&1 | head -n 6 || true
done
echo "check_format: ${#bad[@]} of ${#files[@]} files deviate from .clang-format:"
printf '  %s\n' "${bad[@]}"
echo "check_format: fix with: clang-format -i FILE... (or git clang-format for changed lines)"
exit 1
