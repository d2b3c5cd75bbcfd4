#!/usr/bin/env bash
# Meshscope set-up: installs what is missing (Debian 12 packages), configures and builds, then
#   ./setup.sh run [FILE...]   starts the viewer (on the embedded sample when no FILE is given)
#   ./setup.sh test            runs every test (GUI and rendering tests under Xvfb)
#   ./setup.sh bench           runs the benchmarks (Release build)
# Idempotent: installed packages, an existing configuration and up-to-date targets are skipped.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
build="${MESHSCOPE_BUILD_DIR:-$here/build}"
jobs="${MESHSCOPE_JOBS:-$(nproc)}"

packages=(
  cmake ninja-build g++ pkg-config
  qt6-base-dev qt6-3d-dev libqt6opengl6-dev qt6-qpa-plugins libgl-dev libgl1-mesa-dri
  libdraco-dev draco libzstd-dev liblz4-dev zlib1g-dev
  libpugixml-dev nlohmann-json3-dev libtinygltf-dev libmeshoptimizer-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  xvfb xauth shared-mime-info desktop-file-utils xdg-utils
)

install_missing() {
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

configure_and_build() {
  if [ ! -f "$build/build.ninja" ]; then
    cmake -S "$here" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@"
  fi
  cmake --build "$build" -j "$jobs"
}

cmd="${1:-run}"
[ $# -gt 0 ] && shift
case "$cmd" in
  run)
    install_missing
    configure_and_build
    export QT3D_RENDERER="${QT3D_RENDERER:-opengl}"
    if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
      echo "setup: no display; starting the viewer under xvfb-run (use --screenshot OUT.png to see it)" >&2
      exec xvfb-run -a -s "-screen 0 1600x1000x24" "$build/app/viewer/meshscope" "$@"
    fi
    exec "$build/app/viewer/meshscope" "$@"
    ;;
  test)
    install_missing
    configure_and_build
    export QT3D_RENDERER=opengl
    cd "$build"
    # Rendering and widget tests need an X server: run the whole suite under Xvfb.
    xvfb-run -a -s "-screen 0 1600x1000x24" ctest --output-on-failure -j "$jobs" --timeout 600
    ;;
  bench)
    install_missing
    build="$here/build-release"
    configure_and_build -DCMAKE_BUILD_TYPE=Release
    for b in "$build"/tests/bench/bench_*; do
      [ -x "$b" ] && "$b" --benchmark_min_time=0.5
    done
    ;;
  *)
    echo "usage: ./setup.sh run [FILE...] | test | bench" >&2
    exit 2
    ;;
esac
