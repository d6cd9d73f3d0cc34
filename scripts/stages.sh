# Sourced by the two set-up scripts (main-job.sh, test.sh): each stage's wall time and every
# kernel build that ran make (on a fresh machine the cold builds dominate), said at the end:
#   source scripts/stages.sh; trap 'stages_summary TITLE [DB]' EXIT; stage NAME COMMAND...
source scripts/build-times.sh
export BOOTBENCH_BUILD_TIMES=$PWD/build-times.txt
: >"$BOOTBENCH_BUILD_TIMES"
stages=()
stages_started=$SECONDS
stage() { # name command...: runs one stage and records its wall time
  local name=$1 begin=$SECONDS status=0
  shift
  "$@" || status=$?
  stages+=("$(printf '%-10s %5d s' "$name" $((SECONDS - begin)))$([ "$status" = 0 ] || echo " (exit $status)")")
  return "$status"
}
stages_summary() { # title [database whose kernel builds to add]
  local status=$? took=$((SECONDS - stages_started)) line
  [ -z "${2:-}" ] || record_build_times "$2"
  echo "== $1: $((took / 60)) min $((took % 60)) s wall, exit status $status"
  echo "== stages (wall):"
  for line in "${stages[@]}"; do echo "   $line"; done
  echo "== kernel builds that ran make (seconds, arch, key, fragments, patches):"
  sort -u "$BOOTBENCH_BUILD_TIMES" | sed 's/^/   /'
}
