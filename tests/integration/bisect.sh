#!/usr/bin/env bash
# bootbench bisect against real kernels: a 4-patch series on Debian's linux-source-6.12 in which
# patch 3 adds a late initcall that sleeps 300 ms (tests/integration/bisect-series/). The base
# kernel is CI's arm64 one (smoke fragments, HZ 250: a cache hit after run_matrix); each prefix
# touches one file more. The bisect must name patch 3 with an effect near 300 ms; interrupted,
# it resumes; run again, it reads every step back and boots nothing. The same series as commits
# of a local git range (--commits) must name commit 3.
#
# --min-effect 10: a step decides on a move beyond ±10 % of the older kernel's median only.
# Without it a cold CI run (2026-12-07) bisected astray: prefix-2, byte-identical to prefix-0,
# read +42.7 ms [5.7, 107.0] above it over 7+7 boots (the 300 ms patch is ~40 % of the metric).
#
# The metric is the guest's own clock when the kernel starts /init (its printk timestamp), not
# the host's boot_seconds: on a 2-core host shared with other work, boot_seconds (qemu start,
# UEFI under TCG, the kernel) varied by ±0.7 s between boots of one kernel and buried the
# 300 ms in 8+8 boots; the kernel's own part varies several times less (docs/bisect.md,
# "Measured").
. "$(dirname "$0")/lib.sh"

series=$(cd "$(dirname "$0")/bisect-series" && pwd)
cat >"$work/bisect-delay.yaml" <<YAML
name: bisect-delay
kernel:
  arch: arm64
  fragments: $smoke_fragments
  variants:
    - name: series
      patches:
        - $series/0001-calibrate-debug-line.patch
        - $series/0002-dump-stack-comment.patch
        - $series/0003-version-initcall-sleeps-300ms.patch
        - $series/0004-panic-debug-line.patch
axes:
  hz: [250]
  smp: [1]
  firmware: [QEMU_EFI.fd]
  machine: ["virt,acpi=off"]
guest:
  metrics:
    - name: run_init_uptime_seconds
      regex: '\[ *([0-9]+\.[0-9]+)\] Run /init as init process'
      unit: s
timeout: 120
silence: 60
YAML

# Ctrl-C during step 1: exit 130, the run marked interrupted, no guest left; the bisect below
# resumes it (completing the round that was cut short first).
"$BOOTBENCH" bisect "$work/bisect-delay.yaml" -j 2 --metric run_init_uptime_seconds --min-effect 10 \
  >"$work/interrupted.out" 2>&1 &
pid=$!
wait_for_guest 600 >/dev/null
sleep 3
kill -INT "$pid"
status=0
wait "$pid" || status=$?
expect_eq "$status" 130 "bisect's exit status after Ctrl-C"
expect_eq "$(q "select status from runs")" interrupted "step 1's run after Ctrl-C"
grep -q "^interrupted before an answer: run the same command again to go on$" \
  "$work/interrupted.out" || fail "Ctrl-C's message: $(tail -n 3 "$work/interrupted.out")"
no_qemu_left 10 "after Ctrl-C"

start=$(date +%s)
status=0
"$BOOTBENCH" bisect "$work/bisect-delay.yaml" -j 2 --metric run_init_uptime_seconds --min-effect 10 >"$work/bisect.out" 2>&1 ||
  status=$?
echo "bisect: $(( $(date +%s) - start )) s"
cat "$work/bisect.out"
expect_eq "$status" 0 "bisect's exit status"
answer=$(tail -n 1 "$work/bisect.out")
case $answer in
  "first patch that changed run_init_uptime_seconds: 0003-version-initcall-sleeps-300ms.patch (patch 3 of 4): +"*) ;;
  *) fail "bisect did not name patch 3: $answer" ;;
esac
# The effect (patch 3's own, prefix-2 -> prefix-3) is the 300 ms sleep, give or take the noise
# (a busy host stretches the guest's own time too: 8+8 boots have estimated up to +435 ms).
effect_ms=$(sed -E 's/.*\(patch 3 of 4\): \+([0-9.]+) ms.*/\1/' <<<"$answer")
awk -v e="$effect_ms" 'BEGIN { exit !(e >= 150 && e <= 600) }' ||
  fail "patch 3's effect is $effect_ms ms, not about 300 ms: $answer"
grep -q "(median shift, prefix-2 → prefix-3)" <<<"$answer" || fail "effect's step: $answer"
expect_eq "$(grep -c '^step [0-9]: ' "$work/bisect.out")" 3 "steps printed"
grep -q '^bisect-delay-bisect-0v4: .*, resuming run 1 ' "$work/bisect.out" || fail "step 1 not resumed"
grep -q '^step 1: prefix-4 vs prefix-0: .*: the series changed run_init_uptime_seconds (run ' \
  "$work/bisect.out" || fail "step 1's line"
grep -q '^step 2: prefix-2 vs prefix-0 and prefix-4: .*: prefix-2 differs from prefix-4: the change is after patch 2 (run ' \
  "$work/bisect.out" || fail "step 2's line"
grep -q '^step 3: prefix-3 vs prefix-2 and prefix-4: .*: prefix-3 differs from prefix-2: the change is in patches 3..3 (run ' \
  "$work/bisect.out" || fail "step 3's line"

# Each step is a run of its own experiment, with the two prefixes as variants.
expect_eq "$(q "select group_concat(e.name, ' ') from runs r join experiments e
                on e.id = r.experiment_id order by r.id")" \
  "bisect-delay-bisect-0v4 bisect-delay-bisect-0v2v4 bisect-delay-bisect-2v3v4" "the steps' runs"
expect_eq "$(q "select count(distinct json_extract(params_json, '$.variant')) from boots
                where run_id = (select max(id) from runs)")" 3 "prefixes in the last step"
# Exit 1 exactly when a comparison decided B slower (issue 48 item 7: it exited 0 on "slower").
status=0
"$BOOTBENCH" report --experiment bisect-delay-bisect-2v3v4 --view verdict >"$work/verdict.out" ||
  status=$?
if grep -q "B slower" "$work/verdict.out"; then expected=1; else expected=0; fi
expect_eq "$status" "$expected" "report --view verdict's exit on a step: $(cat "$work/verdict.out")"
boots=$(q "select count(*) from boots")

# Again: every step is read back, nothing is booted or built.
"$BOOTBENCH" bisect "$work/bisect-delay.yaml" -j 2 --metric run_init_uptime_seconds --min-effect 10 >"$work/again.out" 2>&1 ||
  fail "the second bisect failed: $(tail -n 5 "$work/again.out")"
expect_eq "$(tail -n 1 "$work/again.out")" "$answer" "the answer read back"
expect_eq "$(grep -c 'stored in run' "$work/again.out")" 3 "steps read back"
expect_eq "$(q "select count(*) from boots")" "$boots" "boots after the second bisect"
# --json (read back once more, nothing booted): the same answer as data.
"$BOOTBENCH" bisect "$work/bisect-delay.yaml" -j 2 --metric run_init_uptime_seconds --min-effect 10 --json \
  >"$work/again.json" 2>/dev/null || fail "bisect --json failed"
expect_eq "$(jq -r '.answer' "$work/again.json")" "$answer" "--json: the answer"
expect_eq "$(jq -r '"\(.found) \(.first_changed_patch) \(.steps | length)"' "$work/again.json")" \
  "true 3 3" "--json: patch 3 named after 3 steps"
expect_eq "$(jq -r '[.steps[].verdict] | join(" ")' "$work/again.json")" \
  "changed like-older like-newer" "--json: the steps' verdicts"
expect_eq "$(jq -r '"\(.shift_unit) \(.effect.p | type) \(.steps[0].shift.method | type)"' "$work/again.json")" \
  "s number string" "--json: the shifts' unit (a *_seconds metric), the effect's p, a step's method"
awk -v e="$(jq -r '.effect.estimate' "$work/again.json")" -v m="$effect_ms" \
  'BEGIN { exit !(e * 1000 > m - 0.1 && e * 1000 < m + 0.1) }' ||
  fail "--json effect $(jq -r .effect.estimate "$work/again.json") s, text $effect_ms ms"

# Usage: a series that does not exist is a usage error naming the variants.
status=0
"$BOOTBENCH" bisect "$work/bisect-delay.yaml" --variant nope 2>"$work/usage.err" || status=$?
expect_eq "$status" 2 "bisect --variant nope"
grep -q -- "--variant nope: no such variant; the variants are: series (4 patches)" \
  "$work/usage.err" || fail "--variant nope's error: $(cat "$work/usage.err")"

# The same series as commits of a local git range (--commits REPO:A..B), applied on the file's
# Debian source: the repository holds only the four files the series touches, at 6.12's content
# (taken from the unpacked source package), then one commit per patch. The answer must name
# commit 3 by its hash.
debian_tree=$(ls -d "${BOOTBENCH_CACHE:-/var/cache/bootbench}"/sources/linux-source-6.12_*/ | head -n 1)
[ -f "$debian_tree/init/version.c" ] || fail "no unpacked linux-source-6.12 in the cache"
repo=$work/series-repo
mkdir -p "$repo"
git -C "$repo" init -q -b main
for file in init/calibrate.c lib/dump_stack.c init/version.c kernel/panic.c; do
  mkdir -p "$repo/$(dirname "$file")"
  cp "$debian_tree/$file" "$repo/$file"
done
# Fixed identities and dates: the same commits, so the same patch bytes and build keys on every
# run (a rerun on the same machine finds the prefixes' kernels in the cache).
gitc() {
  GIT_AUTHOR_DATE="2026-12-02T00:00:00Z" GIT_COMMITTER_DATE="2026-12-02T00:00:00Z" \
    git -C "$repo" -c user.name=test -c user.email=test@example.invalid "$@"
}
gitc add -A && gitc commit -q -m "linux-source-6.12's four files"
gitc tag base
for patch in "$series"/*.patch; do
  gitc apply "$patch" || fail "git apply $patch"
  gitc commit -q -a -m "$(sed -n 's/^Subject: \[PATCH [0-9/]*\] //p' "$patch")"
done
commit3=$(gitc rev-parse --short=12 HEAD~1)
sed -e 's/^name: bisect-delay$/name: bisect-delay-git/' \
  -e 's|^  arch: arm64$|  source: debian:linux-source-6.12\n  arch: arm64|' \
  -e '/^      patches:$/d' -e '/^        - .*\.patch$/d' "$work/bisect-delay.yaml" >"$work/bisect-git.yaml"
status=0
"$BOOTBENCH" bisect "$work/bisect-git.yaml" -j 2 --metric run_init_uptime_seconds --min-effect 10 \
  --commits "$repo:base..main" >"$work/git.out" 2>&1 || status=$?
cat "$work/git.out"
expect_eq "$status" 0 "bisect --commits' exit status"
grep -q "^series: the 4 commits of $repo base..main on debian:linux-source-6.12$" "$work/git.out" ||
  fail "bisect --commits did not say what it bisects"
case $(tail -n 1 "$work/git.out") in
  "first patch that changed run_init_uptime_seconds: 0003-$commit3-init-version-a-late-initcall-that-sleeps-300-ms.patch (patch 3 of 4): +"*) ;;
  *) fail "bisect --commits did not name commit 3 ($commit3): $(tail -n 1 "$work/git.out")" ;;
esac
status=0
"$BOOTBENCH" bisect "$work/bisect-git.yaml" --commits "$repo:main..base" 2>"$work/git-usage.err" ||
  status=$?
expect_eq "$status" 2 "bisect --commits with a reversed range"
grep -q "is not an ancestor of" "$work/git-usage.err" || fail "reversed range: $(cat "$work/git-usage.err")"
boots=$(q "select count(*) from boots")

no_qemu_left
echo "bisect: ok ($boots boots)"
