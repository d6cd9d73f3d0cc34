-- bootbench schema 7: a (run, cell, repeat) is measured once.
-- Two processes resuming one run could both boot the same repeat and store it twice. Every
-- attempt that is not a sample (infra-error: a lost host, a launcher that failed) may repeat, so
-- the rule is a partial unique index over the rows that count as stored samples.
--
-- Databases written before this schema may hold such twins. The earliest row stays; each later
-- twin becomes an infra-error that says why (its console and figures are kept, it leaves every
-- statistic), so the index can be created without dropping a measurement.
UPDATE boots
SET outcome_reason = 'duplicate of boot ' || (
        SELECT min(o.id) FROM boots o
        WHERE o.run_id = boots.run_id AND o.cell_key = boots.cell_key
          AND o.repeat_index = boots.repeat_index AND o.outcome != 'infra-error')
      || ' (the same repeat stored twice by two processes; was ' || outcome || ': '
      || outcome_reason || ')',
    outcome = 'infra-error'
WHERE outcome != 'infra-error'
  AND EXISTS (SELECT 1 FROM boots o
              WHERE o.run_id = boots.run_id AND o.cell_key = boots.cell_key
                AND o.repeat_index = boots.repeat_index AND o.outcome != 'infra-error'
                AND o.id < boots.id);

CREATE UNIQUE INDEX boots_one_sample_per_repeat ON boots (run_id, cell_key, repeat_index)
WHERE outcome != 'infra-error';
