#!/usr/bin/env bash
# Builds the libFuzzer targets with clang + ASan + UBSan and runs each for a bounded time,
# seeded from files the project's writers generate (tests/fuzz/make_seeds) and, when present,
# ../shared/corpus. A crash, leak, timeout or out-of-memory fails the run; the input that
# triggered it is kept under build-fuzz/artifacts/ (add it to tests/data/broken/ with a test).
# Usage: tests/fuzz/run_fuzz.sh [SECONDS_PER_TARGET]   (default 30)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
seconds="${1:-30}"
build="${MESHSCOPE_FUZZ_BUILD_DIR:-$here/build-fuzz}"
corpus="$here/../shared/corpus"

if [ ! -f "$build/build.ninja" ]; then
  # Line tables only (-g1): enough for the crash reports' stacks, and a third quicker to build.
  CXX=clang++ CC=clang cmake -S "$here" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" \
    -DMESHSCOPE_FUZZ=ON -DMESHSCOPE_BUILD_GUI=OFF -DMESHSCOPE_BUILD_TESTS=OFF -DMESHSCOPE_BUILD_BENCH=OFF
fi
cmake --build "$build" -j "$(nproc)"

seeds="$build/seeds"
rm -rf "$seeds" && mkdir -p "$seeds"
"$build/tests/fuzz/make_seeds" "$seeds"
add_corpus() {  # add_corpus TARGET SUBDIR...
  local t="$1"; shift
  for d in "$@"; do
    [ -d "$corpus/$d" ] || continue
    find "$corpus/$d" -type f ! -name '*.md' ! -name '*.png' -size -2M -exec cp --backup=numbered -t "$seeds/$t" {} + 2>/dev/null || true
  done
}
for t in roblox_mesh roblox_model roblox_model_xml secondlife unigine roblox_csg terrain any; do mkdir -p "$seeds/$t"; done
if [ -d "$corpus" ]; then
  add_corpus roblox_mesh roblox-mesh
  add_corpus roblox_model rbxm
  add_corpus roblox_model_xml rbxmx rbxm/rbx-test-files
  add_corpus secondlife secondlife
  add_corpus unigine unigine
  add_corpus roblox_csg csg
else
  echo "run_fuzz: ../shared/corpus is absent; seeding from generated files only"
fi
# The project's own broken inputs (tests/data/broken), made by its writers plus byte surgery.
for t in roblox_mesh roblox_model roblox_model_xml secondlife unigine roblox_csg; do
  [ -d "$here/tests/data/broken/$t" ] && cp --backup=numbered "$here/tests/data/broken/$t"/* "$seeds/$t/" 2>/dev/null || true
done
cp -r --backup=numbered "$seeds"/roblox_mesh/. "$seeds"/roblox_model/. "$seeds"/roblox_model_xml/. "$seeds"/secondlife/. \
  "$seeds"/unigine/. "$seeds"/roblox_csg/. "$seeds/any/" 2>/dev/null || true

mkdir -p "$build/artifacts" "$build/work"
status=0
for t in roblox_mesh roblox_model roblox_model_xml secondlife unigine roblox_csg terrain any; do
  work="$build/work/$t" && mkdir -p "$work"
  echo "fuzz_$t: ${seconds}s, $(ls "$seeds/$t" | wc -l) seeds"
  if ! ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
      "$build/tests/fuzz/fuzz_$t" "$work" "$seeds/$t" -max_total_time="$seconds" -timeout=10 \
      -rss_limit_mb=2560 -max_len=1048576 -artifact_prefix="$build/artifacts/$t-" -print_final_stats=1 \
      > "$build/fuzz_$t.log" 2>&1; then
    echo "fuzz_$t: FAILED (see $build/fuzz_$t.log)"; tail -40 "$build/fuzz_$t.log"; status=1
  else
    grep -E "stat::number_of_executed_units|cov:" "$build/fuzz_$t.log" | tail -2
  fi
done
exit $status
