#!/usr/bin/env bash
# Builds the libFuzzer targets (clang + ASan + UBSan, in the asan preset's tree that the README's
# test command also runs the sanitizer suite from) and runs each for a bounded time, as many at
# once as there are cores, seeded from files the project's writers generate (tests/fuzz/make_seeds)
# and, when present, ../shared/corpus. A crash, leak, timeout or out-of-memory fails the run; the
# input that triggered it is kept under <build>/artifacts/ (add it to tests/data/broken/ with a
# test).
# Usage: tests/fuzz/run_fuzz.sh [SECONDS_PER_TARGET]   (default 30)
#   MESHSCOPE_FUZZ_BUILD_DIR  the tree (default build-asan; configured with the asan preset)
#   MESHSCOPE_JOBS            targets run at once (default: the number of cores)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
seconds="${1:-30}"
build="${MESHSCOPE_FUZZ_BUILD_DIR:-$here/build-asan}"
jobs="${MESHSCOPE_JOBS:-$(nproc)}"
corpus="$here/../shared/corpus"

if [ ! -f "$build/build.ninja" ]; then
  (cd "$here" && cmake --preset asan -B "$build")
fi
cmake --build "$build" -j "$(nproc)" --target meshscope_fuzzers

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
  add_corpus any draco  # bare Draco streams: only the registry target decodes them
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
# fuzz_one TARGET: runs one target; its summary (or its failure and log tail) goes to
# $build/fuzz_TARGET.summary so that targets run side by side print whole, in order, and its
# exit status to $build/fuzz_TARGET.status.
# A unit's time limit is 60 s: libdraco 1.5.5 (Debian 12) loops over a count it reads from the
# stream (a Draco mesh's texture-coordinate orientation bits, up to 2^31) whatever the mesh's size,
# so a 1.3 KB stream the fuzzer finds within seconds takes 14 s under ASan (7 s in libdraco's own
# draco_decoder): bounded, and not ours to shorten, but over the 10 s this used to allow.
fuzz_one() {
  local t="$1" work="$build/work/$1" out="$build/fuzz_$1.summary"
  mkdir -p "$work"
  echo 1 > "$build/fuzz_$t.status"
  {
    echo "fuzz_$t: ${seconds}s, $(ls "$seeds/$t" | wc -l) seeds"
    if ! ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
        "$build/tests/fuzz/fuzz_$t" "$work" "$seeds/$t" -max_total_time="$seconds" -timeout=60 \
        -rss_limit_mb=2560 -max_len=1048576 -artifact_prefix="$build/artifacts/$t-" -print_final_stats=1 \
        > "$build/fuzz_$t.log" 2>&1; then
      echo "fuzz_$t: FAILED (see $build/fuzz_$t.log)"; tail -40 "$build/fuzz_$t.log"; return 1
    fi
    grep -E "stat::number_of_executed_units|cov:" "$build/fuzz_$t.log" | tail -2
  } > "$out" 2>&1 && echo 0 > "$build/fuzz_$t.status"
}
targets=(roblox_mesh roblox_model roblox_model_xml secondlife unigine roblox_csg terrain any)
for t in "${targets[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
  fuzz_one "$t" &
done
wait
status=0
for t in "${targets[@]}"; do
  cat "$build/fuzz_$t.summary"
  [ "$(cat "$build/fuzz_$t.status")" = 0 ] || status=1
done
exit $status
