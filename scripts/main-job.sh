#!/usr/bin/env bash
# The main job on a fresh Debian 12 machine: install, build the tool (not its tests), check the
# machine, then the default experiment, configs/quick.yaml: seed 000 on the seed's own metric —
# an L2 guest's boot time under KVM in an arm64 L1 whose SRCU is stock 6.12 or as of 640a7d37,
# L2's firmware reclaiming a full variable store before its kernel starts. Two L1 kernels (the
# patched one starts from the stock one's build), five rounds of nested boots, every sample
# stored in SQLite; the run ends with the declared analysis's verdict line (before / stock with
# its interval and p).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/stages.sh
trap 'stages_summary "main job" db/bootbench.sqlite' EXIT
stage setup bash scripts/setup.sh
stage build bash scripts/build.sh bootbench
# Informative: a missing optional piece must not stop the job.
stage doctor ./build/bootbench doctor || true
stage run ./build/bootbench run configs/quick.yaml
