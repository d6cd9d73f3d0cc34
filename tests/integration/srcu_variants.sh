#!/usr/bin/env bash
# Seed 000's SRCU kernels identify themselves (configs/srcu-variants-smoke.yaml): `before`
# (640a7d37's delays), `table` (before + the seed's srcu_gp_end(), phase count from the command
# line) and `fixed` (stock 6.12) each boot once, and each console holds exactly one
#   rcu: bootbench-srcu-variant=NAME srcu_max_nodelay_phase=N srcu_max_nodelay=M srcu_retry_check_delay=D
# line with its own name and limits (kernels/README.md). Builds three kernels from CI's smoke
# fragment set: `fixed` and `before` are srcu-storm-smoke's, so after that test they are cached.
. "$(dirname "$0")/lib.sh"
config=$(dirname "$0")/../../configs/srcu-variants-smoke.yaml

"$BOOTBENCH" run "$config" --seed 1

bq() { "$BOOTBENCH" query --format csv "$1" | tail -n +2; } # rows without the CSV header
console_of() { # boot id -> the stored console, as text
  q "select writefile('$work/console-$1.gz', console_gz) from boots where id = $1" >/dev/null
  zcat "$work/console-$1.gz"
}

expect_eq "$(bq "select count(*) from v_samples where experiment = 'srcu-variants-smoke' and outcome = 'ok'")" 3 \
  "three ok boots"
# variant, the line it must print (HZ 250: stock 6.12 clamps its phase count to 1000 and raises
# the per-jiffy limit with it; before and table keep 640a7d37's 100 per jiffy)
while read -r variant expected; do
  boots=$(bq "select boot_id from v_samples where experiment = 'srcu-variants-smoke'
              and variant = '$variant' and outcome = 'ok'")
  [ -n "$boots" ] || fail "$variant: no ok boot"
  expect_eq "$(wc -l <<<"$boots")" 1 "$variant: one ok boot"
  console_of "$boots" >"$work/$variant.log"
  lines=$(grep -o 'bootbench-srcu-variant=.*' "$work/$variant.log" | tr -d '\r' || true)
  expect_eq "$lines" "$expected" "$variant: identification line"
  phase=${expected#* srcu_max_nodelay_phase=}
  phase=${phase%% *}
  expect_eq "$(bq "select cast(value as int) from v_metrics where boot_id = $boots and name = 'srcu_max_nodelay_phase'")" \
    "$phase" "$variant: srcu_max_nodelay_phase metric"
  expect_eq "$(bq "select count(*) from v_samples where boot_id = $boots and params_not_applied is not null")" 0 \
    "$variant: every command-line parameter took"
done <<'EOF'
fixed bootbench-srcu-variant=fixed srcu_max_nodelay_phase=1000 srcu_max_nodelay=1000 srcu_retry_check_delay=5
before bootbench-srcu-variant=before srcu_max_nodelay_phase=3 srcu_max_nodelay=100 srcu_retry_check_delay=5
table bootbench-srcu-variant=table srcu_max_nodelay_phase=250 srcu_max_nodelay=100 srcu_retry_check_delay=5
EOF

# Only stock 6.12 announces 4f2bfd9494f0's parameters; the two 640a7d37 kernels have none of them.
grep -q "Max phase no-delay instances is 1000\." "$work/fixed.log" ||
  fail "fixed: stock 6.12's 'Max phase no-delay instances is 1000.' is missing"
for variant in before table; do
  ! grep -q "Max phase no-delay instances" "$work/$variant.log" ||
    fail "$variant: prints stock 6.12's phase announcement"
done
# The same change under another message, From line and signature (as `git format-patch` or b4
# would re-export it) is the same kernel: its key hashes the patch's change, not its bytes.
patch=$(dirname "$0")/../../kernels/patches/srcu/before/0001-srcu-recreate-640a7d37-expedited-delays.patch
{
  printf 'From 0123456789abcdef0123456789abcdef01234567 Mon Sep 17 00:00:00 2001\n'
  printf 'Subject: [PATCH] srcu: the same change, re-exported\n\nAnother message.\n---\n'
  sed -n '/^--- /,$p' "$patch"
  printf -- '-- \n2.39.5\n'
} >"$work/reexported.patch"
"$BOOTBENCH" build --arch arm64 --hz 250 $(smoke_fragment_args) --patch "$work/reexported.patch" \
  --explain >"$work/reexported.txt"
has_match "^cache: hit" <"$work/reexported.txt" ||
  fail "a re-exported patch missed the cache: $(cat "$work/reexported.txt")"
no_qemu_left
echo PASS
