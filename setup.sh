#!/usr/bin/env bash
# Meshscope set-up: installs what is missing (Debian 12 packages), configures and builds, then
#   ./setup.sh run [FILE...]   starts the viewer (on the embedded sample when no FILE is given)
#   ./setup.sh test            runs every test: the .clang-format check, the suite (GUI and
#                              rendering tests under Xvfb), the core and CLI suites again in an
#                              ASan + UBSan build (clang) and each libFuzzer target built there
#                              for MESHSCOPE_FUZZ_SECONDS (30) seconds, then the core tests that
#                              run threads in a ThreadSanitizer build
#   ./setup.sh test --quick    only the format check and the suite
#   ./setup.sh bench           runs the benchmarks (Release build)
# Builds use the presets of CMakePresets.json (dev, asan, tsan, release) in build/, build-asan/,
# build-tsan/ and build-release/. The asan tree (clang) holds both the sanitizer suite and the
# libFuzzer targets, so the sanitized core is compiled once for both.
# Idempotent: installed packages, an existing configuration and up-to-date targets are skipped.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
build="${MESHSCOPE_BUILD_DIR:-$here/build}"
jobs="${MESHSCOPE_JOBS:-$(nproc)}"
# Rebuilds of other trees (a fresh clone, the sanitizer trees) reuse compiled objects when ccache
# is installed; without it nothing changes.
if [ -z "${CMAKE_CXX_COMPILER_LAUNCHER:-}" ] && command -v ccache > /dev/null 2>&1; then
  export CMAKE_CXX_COMPILER_LAUNCHER=ccache
  # The test executables use a precompiled header: ccache caches those compiles only with this.
  export CCACHE_SLOPPINESS="${CCACHE_SLOPPINESS:-pch_defines,time_macros}"
fi

packages=(
  cmake ninja-build g++ pkg-config
  qt6-base-dev qt6-3d-dev libqt6opengl6-dev qt6-qpa-plugins libgl-dev libgl1-mesa-dri
  libdraco-dev draco libzstd-dev liblz4-dev zlib1g-dev
  libpugixml-dev nlohmann-json3-dev libtinygltf-dev libmeshoptimizer-dev libpng-dev
  libjpeg62-turbo-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  libxml2-dev libexpat1-dev  # bench_corpus_models' XML floors through Debian's other XML readers
  xvfb xauth shared-mime-info desktop-file-utils xdg-utils
  clang libclang-rt-14-dev clang-format assimp-utils appstream
)

# The Khronos glTF Validator (npm gltf-validator) that the export tests run through Node:
# installed into tools/node_modules when neither Node's resolution nor npm's global folder has it.
install_gltf_validator() {
  if ! command -v npm > /dev/null 2>&1 || ! command -v node > /dev/null 2>&1; then
    echo "setup: npm/node not found: skipping the glTF Validator (the export validation tests will be skipped)"
    return 0
  fi
  if [ -d "$here/tools/node_modules/gltf-validator" ] ||
     NODE_PATH="$(npm root -g 2>/dev/null)" node -e "require.resolve('gltf-validator')" > /dev/null 2>&1; then
    return 0
  fi
  echo "setup: installing gltf-validator into tools/node_modules"
  mkdir -p "$here/tools"
  npm install --prefix "$here/tools" --no-save --no-audit --no-fund gltf-validator ||
    echo "setup: npm install gltf-validator failed; the export validation tests will be skipped"
}

install_missing() {
  install_missing_packages
  install_gltf_validator
}

install_missing_packages() {
  local missing=()
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "setup: installing ${missing[*]}"
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
}

# configure_and_build PRESET [TARGET...]: configures $build with a preset of CMakePresets.json
# (once) and builds the targets (default: all).
configure_and_build() {
  local preset="$1"; shift
  # Trees configured before the sanitizer presets moved to clang (GCC-built) are made again.
  if [ -f "$build/CMakeCache.txt" ] && { [ "$preset" = asan ] || [ "$preset" = tsan ]; } &&
     ! grep -q '^CMAKE_CXX_COMPILER:.*clang' "$build/CMakeCache.txt"; then
    echo "setup: $build was configured with another compiler; configuring it again"
    rm -rf "$build"
  fi
  if [ ! -f "$build/build.ninja" ]; then
    (cd "$here" && cmake --preset "$preset" -B "$build")
  fi
  local targets=()
  for t in "$@"; do targets+=(--target "$t"); done
  cmake --build "$build" -j "$jobs" "${targets[@]}"
}

cmd="${1:-run}"
[ $# -gt 0 ] && shift
case "$cmd" in
  run)
    install_missing
    configure_and_build dev
    export QT3D_RENDERER="${QT3D_RENDERER:-opengl}"
    if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
      echo "setup: no display; starting the viewer under xvfb-run (use --screenshot OUT.png to see it)" >&2
      exec xvfb-run -a -s "-screen 0 1600x1000x24 -noreset" "$build/app/viewer/meshscope" "$@"
    fi
    exec "$build/app/viewer/meshscope" "$@"
    ;;
  test)
    install_missing
    status=0
    echo "== .clang-format check"
    "$here/tests/check_format.sh" || status=1
    configure_and_build dev
    export QT3D_RENDERER=opengl
    # Rendering and widget tests need an X server: run the whole suite under Xvfb.
    echo "== suite"
    (cd "$build" && xvfb-run -a -s "-screen 0 1600x1000x24 -noreset" \
        ctest --output-on-failure -j "$jobs" --timeout 600) || status=1
    if [ "${1:-}" != "--quick" ]; then
      # The core and CLI suites again under AddressSanitizer + UndefinedBehaviorSanitizer
      # (clang, leak detection on); the libFuzzer targets are built in the same tree.
      echo "== ASan + UBSan suite"
      build="$here/build-asan"
      configure_and_build asan
      (cd "$build" && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
          ctest --output-on-failure -j "$jobs" --timeout 900) || status=1
      echo "== libFuzzer targets"
      MESHSCOPE_FUZZ_BUILD_DIR="$build" \
          "$here/tests/fuzz/run_fuzz.sh" "${MESHSCOPE_FUZZ_SECONDS:-30}" || status=1
      # ThreadSanitizer over the core test areas whose code starts threads (label "threads": a
      # binary model's chunks are inflated on a worker thread; the core starts threads nowhere
      # else, which the CoreThreads test checks). Only those tests and the CLI are built.
      echo "== ThreadSanitizer suite (core tests that run threads)"
      build="$here/build-tsan"
      configure_and_build tsan meshscope_threaded_tests
      (cd "$build" && TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" \
          ctest --output-on-failure -j "$jobs" --timeout 900 -L '^threads$') || status=1
    fi
    if [ $status -eq 0 ]; then echo "setup: all tests passed"; else echo "setup: TESTS FAILED"; fi
    exit $status
    ;;
  bench)
    packages+=(f3d)  # the open-to-first-frame benchmark runs F3D beside Meshscope
    install_missing
    build="$here/build-release"
    configure_and_build release
    for b in "$build"/tests/bench/bench_*; do
      case "$b" in *open_to_first_frame*) continue ;; esac
      [ -x "$b" ] && "$b" --benchmark_min_time=0.5
    done
    "$here/tests/bench/open_to_first_frame.sh" "$build"
    ;;
  *)
    echo "usage: ./setup.sh run [FILE...] | test | bench" >&2
    exit 2
    ;;
esac
