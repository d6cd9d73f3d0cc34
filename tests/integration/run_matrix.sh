#!/usr/bin/env bash
# The matrix runner end to end: a real build (cached after the first time), real boots, resume
# by seed and by run id, and kill -9 of bootbench in the middle of a run: no qemu survives, the
# database is intact, and resuming finishes without losing or duplicating a sample.
. "$(dirname "$0")/lib.sh"
config=$(dirname "$0")/../../configs/smoke-matrix.yaml

"$BOOTBENCH" run "$config" --validate | has_match ": ok" || fail "validate"
# `build FILE.yaml` builds what the run boots and boots nothing; the run then finds it cached.
if "$BOOTBENCH" build "$config" --patch x.patch 2>"$work/build.err"; then fail "build FILE --patch accepted"; fi
grep -q -- "--patch does not go with an experiment file" "$work/build.err" || fail "build FILE --patch: $(cat "$work/build.err")"
"$BOOTBENCH" build "$config" --json >"$work/build.json" || fail "build FILE failed"
built=$(python3 -c 'import json, sys; k = json.load(open(sys.argv[1])); print(len(k), k[0]["key"][:12], k[0]["variant"])' "$work/build.json")
read -r kernels key variant <<<"$built"
expect_eq "$kernels $variant" "1 stock" "one kernel for a cmdline-only matrix"
expect_eq "$(q "select count(*) from boots")" 0 "build boots nothing"
# --only picks cells as `run --only` does: a value that is not the axis's is refused by name.
"$BOOTBENCH" build "$config" --only srcutree.srcu_max_nodelay_phase=1000 --json >"$work/only.json"
expect_eq "$(python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))))' "$work/only.json")" 1 \
  "build FILE --only: the kernel of the chosen cells"
if "$BOOTBENCH" build "$config" --only hz=100 2>"$work/only.err"; then fail "build --only hz=100 accepted"; fi
grep -q "'100' is not a value of hz" "$work/only.err" || fail "build --only hz=100: $(cat "$work/only.err")"
"$BOOTBENCH" run "$config" --json >"$work/run.json" 2>"$work/run.err"
grep -q "cached $key" "$work/run.err" || fail "the run did not find the kernel build FILE made: $(cat "$work/run.err")"
expect_eq "$(q "select count(*) from boots")" 4 "samples stored"
expect_eq "$(q "select count(*) from boots where outcome = 'ok'")" 4 "ok samples"
expect_eq "$(q "select count(distinct cell_key) from boots")" 2 "cells"
expect_eq "$(q "select count(distinct build_key) from boots")" 1 "a cmdline axis needs one build"
expect_eq "$(q "select count(*) from boots where cmdline like '%srcutree.srcu_max_nodelay_phase=100 %' or cmdline like '%srcutree.srcu_max_nodelay_phase=100'")" 2 "cmdline values"
expect_eq "$(q "select count(*) from boots where json_extract(params_json, '$.\"srcutree.srcu_max_nodelay_phase\"') is not null")" 4 "params recorded"
expect_eq "$(q "select status || ' ' || seed from runs")" "done 1" "run status and seed"
expect_eq "$(q "select count(*) from boots where foreign_load is not null and concurrency >= 1")" 4 "load and concurrency recorded"
grep -q '"boots": 2' "$work/run.json" || fail "JSON summary"

# trace: initcalls: every boot ran with initcall_debug and stored a complete trace. The initcalls
# that started before /init run one after another inside the kernel's time to /init, so their
# sum is at most that time; and they are most of it (about 60 % on CI's kernel, 2026-12-07):
# at least a quarter, or the dump lost initcalls.
expect_eq "$(q "select count(*) from boots where cmdline like '% initcall_debug%' and initcall_trace = 'complete'")" 4 \
  "complete initcall traces"
expect_eq "$(q "select count(*) from boots b where (select sum(duration_us) / 1e6 from boot_initcalls i
  where i.boot_id = b.id and i.start_seconds < b.kernel_init_seconds)
  between 0.25 * b.kernel_init_seconds and b.kernel_init_seconds")" 4 \
  "initcalls sum to between 25 % and 100 % of the kernel's time to /init"
"$BOOTBENCH" report --view initcalls --top 5 --format json >"$work/initcalls.json"
expect_eq "$(python3 -c 'import json, sys; v = json.load(open(sys.argv[1])); print(len(v["groups"]), sorted({g["traced"] for g in v["groups"]}), len(v["groups"][0]["initcalls"]))' "$work/initcalls.json")" \
  "2 [2] 5" "report --view initcalls: two cells of two traced boots, five initcalls each"
"$BOOTBENCH" report --view initcalls --top 3 | has_match "(kernel to /init)" || fail "initcalls text view"

# Same experiment, same seed: everything is stored already, nothing boots again.
"$BOOTBENCH" run "$config"
expect_eq "$(q "select count(*) from boots")" 4 "re-run skips stored samples"
expect_eq "$(q "select count(*) from runs")" 1 "re-run reuses the run"

# kill -9 in the middle of a run with another seed, then resume it.
"$BOOTBENCH" run "$config" --seed 2 --slots 1 >"$work/killed.log" 2>&1 &
pid=$!
for _ in $(seq 1 600); do
  [ "$(q "select count(*) from boots b join runs r on r.id = b.run_id where r.seed = 2")" -ge 1 ] && break
  sleep 0.5
done
# Kill while a guest boots (the next sample's), so the check below has a guest to miss.
guests=$(wait_for_guest 120)
kill -9 "$pid"
wait "$pid" 2>/dev/null || true
# Each guest dies with bootbench (PR_SET_PDEATHSIG): no qemu of this test may remain, whether
# it was seen above or started just before the kill, whoever its parent is now.
no_qemu_left 10 "kill -9 of bootbench (guest $(echo $guests) was running)"
expect_eq "$(q "pragma integrity_check")" ok "integrity after kill -9"
before=$(q "select count(*) from boots b join runs r on r.id = b.run_id where r.seed = 2")
run_id=$(q "select id from runs where seed = 2")
expect_eq "$(q "select status from runs where id = $run_id")" running "killed run left running"
# The resume warms up first (--warmup 1): one boot per cell still to measure, stored below
# repeat 0 and never used, before the samples.
last=$(q "select max(id) from boots where run_id = $run_id")
"$BOOTBENCH" run "$config" --resume "$run_id" --warmup 1 >"$work/resume.log" 2>&1
expect_eq "$(q "select count(*) from boots where run_id = $run_id and repeat_index >= 0")" 4 "resume completes the run (had $before)"
expect_eq "$(q "select count(*) >= 1, count(*) = count(distinct cell_key), max(repeat_index) from boots
  where run_id = $run_id and repeat_index < 0")" "1|1|-1" "one warm-up per cell left to measure"
expect_eq "$(q "select max(id) < (select min(id) from boots where run_id = $run_id and id > $last and repeat_index >= 0)
  from boots where run_id = $run_id and repeat_index < 0")" 1 "the warm-ups booted before the samples"
expect_eq "$(q "select sum(warmup) = sum(repeat_index < 0), sum(used * warmup) from v_samples where run_id = $run_id")" \
  "1|0" "warm-ups stored, never used"
has_match "warmup 1" <"$work/resume.log" || fail "resume: no warm-up line: $(cat "$work/resume.log")"
expect_eq "$(q "select count(*) from (select cell_key, repeat_index from boots where run_id = $run_id group by 1, 2 having count(*) > 1)")" 0 "no duplicate samples"
expect_eq "$(q "select status from runs where id = $run_id")" done "resumed run done"
# Two traced runs of one kernel: compare --initcalls tests every initcall of both cells.
"$BOOTBENCH" compare 1 "$run_id" --initcalls --format json >"$work/initcall-shifts.json"
expect_eq "$(python3 -c 'import json, sys; g = json.load(open(sys.argv[1]))["initcalls"]["groups"]; print(len(g), min(x["tested"] for x in g) > 100, {x["traced_a"] for x in g})' "$work/initcall-shifts.json")" \
  "2 True {2}" "compare --initcalls: both cells, every initcall tested"

# Ctrl-C (SIGINT) in the middle of a boot: the guest is stopped, the unfinished boot is not
# stored as a sample, the run is marked interrupted and bootbench exits 130.
"$BOOTBENCH" run "$config" --seed 3 --slots 1 >"$work/sigint.log" 2>&1 &
pid=$!
guests=$(wait_for_guest 120)
kill -INT "$pid"
status=0
wait "$pid" || status=$?
expect_eq "$status" 130 "exit status after SIGINT"
no_qemu_left 10 "SIGINT of bootbench (guest $(echo $guests) was running)"
expect_eq "$(q "select status from runs where seed = 3")" interrupted "run marked interrupted"
expect_eq "$(q "select count(*) from boots b join runs r on r.id = b.run_id where r.seed = 3 and b.outcome != 'ok'")" 0 \
  "the interrupted boot is not stored as a failed sample"
expect_eq "$(q "pragma integrity_check")" ok "integrity after SIGINT"
no_qemu_left
echo PASS
