#!/usr/bin/env bash
# The main job on a fresh Debian 12 machine: install, build, check the machine, then the default
# experiment (configs/quick.yaml): two arm64 kernels built by bootbench (SRCU `fixed`, stock 6.12,
# and `before`, SRCU as of 640a7d37), booted under -bios QEMU_EFI.fd five times each, every
# sample stored in SQLite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
./build/bootbench doctor || true   # informative: a missing optional piece must not stop the job
./build/bootbench run configs/quick.yaml
