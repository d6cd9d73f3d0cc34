#!/usr/bin/env bash
# Two bootbench processes write one fresh database at once (both migrate it, both store boots)
# while a third keeps reading it: no row may be lost and nobody may see "database is locked".
# First two `bootbench boot` series of Debian's prebuilt x86_64 cloud kernel (TCG), then two
# `bootbench run` of the smoke matrix (its kernel is built by integration.run_matrix) with
# different seeds, each against a reader.
. "$(dirname "$0")/../integration/lib.sh"
repeats=${REPEATS:-3}
# Each writer's guests are foreign load to the other: --no-quiet-wait, or each would wait for a
# quiet host (reliability.quiet_gate tests the gate).

"$BOOTBENCH" boot --arch x86_64 --accel tcg --append no_timer_check -n "$repeats" --no-quiet-wait >"$work/a.log" 2>&1 &
writer_a=$!
"$BOOTBENCH" boot --arch x86_64 --accel tcg --append no_timer_check -n "$repeats" --no-quiet-wait >"$work/b.log" 2>&1 &
writer_b=$!
reads=0
while kill -0 "$writer_a" 2>/dev/null || kill -0 "$writer_b" 2>/dev/null; do
  # Before the first writer has created the file there is nothing to read yet.
  if [ -f "$BOOTBENCH_DB" ]; then
    "$BOOTBENCH" query "select count(*) from v_samples" >>"$work/reads.log" 2>&1 ||
      fail "a read failed while two runs wrote: $(tail -3 "$work/reads.log")"
    "$BOOTBENCH" report >/dev/null 2>>"$work/reads.log" || true # no boot yet is fine
    reads=$((reads + 1))
  fi
  sleep 0.2
done
wait "$writer_a" || fail "writer a failed: $(tail -5 "$work/a.log")"
wait "$writer_b" || fail "writer b failed: $(tail -5 "$work/b.log")"
if grep -i "database is locked\|sqlite_busy" "$work/a.log" "$work/b.log" "$work/reads.log"; then
  fail "\"database is locked\" seen"
fi
expect_eq "$(q "select count(*) from boots")" $((2 * repeats)) "boots stored by two writers"
expect_eq "$(q "select count(*) from runs where status = 'done'")" 2 "finished runs"
expect_eq "$(q "select count(*) from boots where outcome = 'ok'")" $((2 * repeats)) "ok boots"
[ "$reads" -ge 5 ] || fail "only $reads reads happened during the writes"
no_qemu_left
boot_reads=$reads

# Two matrix runs of one experiment, different seeds, on the same database.
config=$(dirname "$0")/../../configs/smoke-matrix.yaml
"$BOOTBENCH" run "$config" --seed 11 --slots 1 --no-quiet-wait >"$work/run-a.log" 2>&1 &
writer_a=$!
"$BOOTBENCH" run "$config" --seed 12 --slots 1 --no-quiet-wait >"$work/run-b.log" 2>&1 &
writer_b=$!
reads=0
while kill -0 "$writer_a" 2>/dev/null || kill -0 "$writer_b" 2>/dev/null; do
  "$BOOTBENCH" query "select count(*) from v_samples" >>"$work/run-reads.log" 2>&1 ||
    fail "a read failed while two runs wrote: $(tail -3 "$work/run-reads.log")"
  "$BOOTBENCH" report --experiment smoke-matrix >/dev/null 2>>"$work/run-reads.log" || true
  reads=$((reads + 1))
  sleep 0.2
done
wait "$writer_a" || fail "run a failed: $(tail -5 "$work/run-a.log")"
wait "$writer_b" || fail "run b failed: $(tail -5 "$work/run-b.log")"
if grep -i "database is locked\|sqlite_busy" "$work/run-a.log" "$work/run-b.log" "$work/run-reads.log"; then
  fail "\"database is locked\" seen in the matrix runs"
fi
expect_eq "$(q "select count(*) from boots b join runs r on r.id = b.run_id
                where r.seed in (11, 12)")" 8 "boots stored by two matrix runs (2 x 4)"
expect_eq "$(q "select count(*) from runs where seed in (11, 12) and status = 'done'")" 2 \
  "finished matrix runs"
[ "$reads" -ge 5 ] || fail "only $reads reads happened during the matrix runs"
no_qemu_left
echo "PASS (2 writers x $repeats boots with $boot_reads concurrent reads; 2 matrix runs x 4 samples with $reads concurrent reads; $(q "select count(*) from boots") rows)"
