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
# Seed 000's headline effect is a host-side one and does not fit this job's 20 minutes on a fresh
# 2-core machine (two preemptible KVM-host kernels, ~19 min cold, then 12 nested boots, 11 min;
# docs/results/srcu.md section 6). The last line names the command that shows it.
echo "seed 000 on the host side (before vs fixed L1, L2 writing EFI variables; ~30 min fresh, a verdict at the end): ./build/bootbench run configs/srcu-efivar-ab.yaml"
