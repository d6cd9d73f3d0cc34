#!/usr/bin/env bash
# Configures and builds bootbench into ./build (warnings are errors, as in CI): every target, or
# only the ones named (`bash scripts/build.sh bootbench`: the tool without its tests, for the
# main job).
set -euo pipefail
cd "$(dirname "$0")/.."
launcher=()
if command -v ccache >/dev/null; then
  # Clones in other directories share the cache (CI builds a fresh clone every time).
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  export CCACHE_BASEDIR=$PWD CCACHE_NOHASHDIR=1
fi
# Line tables only (-g1): backtraces and gdb's line numbers, at a fraction of full debug
# information's compile time on a cold 2-core CI machine.
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" -DBOOTBENCH_WERROR=ON \
  "${launcher[@]}" >/dev/null
ninja -C build -j"$(nproc)" "$@"
