#!/usr/bin/env bash
# Configures and builds bootbench into ./build (warnings are errors, as in CI).
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBOOTBENCH_WERROR=ON >/dev/null
ninja -C build -j"$(nproc)"
