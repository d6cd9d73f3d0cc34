#!/usr/bin/env bash
# Two bootbench processes write one fresh database at once (both migrate it, both store boots)
# while a third keeps reading it: no row may be lost and nobody may see "database is locked".
# Boots Debian's prebuilt x86_64 cloud kernel (TCG) 2 x REPEATS times.
. "$(dirname "$0")/../integration/lib.sh"
repeats=${REPEATS:-3}

"$BOOTBENCH" boot --arch x86_64 --accel tcg --append no_timer_check -n "$repeats" >"$work/a.log" 2>&1 &
writer_a=$!
"$BOOTBENCH" boot --arch x86_64 --accel tcg --append no_timer_check -n "$repeats" >"$work/b.log" 2>&1 &
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
echo "PASS (2 writers x $repeats boots, $reads concurrent reads, $(q "select count(*) from boots") rows)"
