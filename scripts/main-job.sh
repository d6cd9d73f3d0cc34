#!/usr/bin/env bash
# The main job on a fresh Debian 12 machine: install, build, check the machine, then the default
# experiment — for now a real arm64 boot with -bios QEMU_EFI.fd, three times, stored in SQLite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
./build/bootbench doctor || true   # informative: a missing optional piece must not stop the job
./build/bootbench boot --arch arm64 --bios QEMU_EFI.fd -n 3
