#!/bin/sh
# Open-to-first-frame benchmark: Meshscope on a 1M-triangle FileMesh beside `f3d --output` on
# the same geometry as .glb (wall time and peak RSS through /usr/bin/time -v, and the ratios).
# Needs f3d (Debian: apt-get install -y f3d) and, without a display, xvfb-run.
#   tests/bench/open_to_first_frame.sh [BUILD_DIR] [extra options of bench_open_to_first_frame]
set -eu
build=${1:-build}
[ $# -gt 0 ] && shift
ninja -C "$build" meshscope bench_open_to_first_frame >/dev/null
program="$build/tests/bench/bench_open_to_first_frame"
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
    exec xvfb-run -a -s "-screen 0 1280x1024x24" "$program" --viewer "$build/app/viewer/meshscope" "$@"
fi
exec "$program" --viewer "$build/app/viewer/meshscope" "$@"
