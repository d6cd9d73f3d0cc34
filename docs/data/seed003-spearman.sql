-- docs/results/rwsem.md: do the per-profile gains follow the seed's per-app gains? For each
-- declared run and kernel variant, and for the calibrated (launch_relative.<app>) and the raw
-- (launch.<app>, ms, the seed's own metric) launch times: per profile, the gain
-- 1 - median(opt_rspin=1) / median(opt_rspin=0) over the used boots (the medians of the page's
-- per-item tables), then Spearman's rank correlation with the seed's "Diff(%)" column (its cover
-- letter; ties get their average rank, rho is Pearson's r of the ranks). 15 profiles; with n 15,
-- |rho| >= 0.52 is needed for two-sided p < 0.05 (tables of Spearman's rho). Exploratory.
--   bootbench query --db docs/data/seed003.sqlite --file THIS
--   bootbench query --db docs/data/seed003-v3.sqlite --file THIS
with seed(app, gain) as (values
  ('helloworld', 1.8), ('amazon_seller', 2.3), ('whatsapp', 2.3), ('simple_pdf_reader', 7.4),
  ('faceapp', 3.9), ('timestamp_camera_free', 1.8), ('kindle', 5.1), ('coinbase', 4.1),
  ('firefox', 6.1), ('candy_crush_soda', 2.5), ('hill_climb_racing', 6.1),
  ('call_recorder', 2.5), ('color_fill_3d', 5.3), ('etoro', 1.4), ('groupme', 5.3)),
vals as (
  select v.run_id, v.variant, json_extract(v.params_json, '$."rwsem.opt_rspin"') as rspin,
         substr(m.name, 1, instr(m.name, '.') - 1) as metric,
         substr(m.name, instr(m.name, '.') + 1) as app, m.value
  from v_samples v join metrics m on m.boot_id = v.boot_id
  where v.used = 1 and (m.name like 'launch.%' or m.name like 'launch_relative.%')
    and v.experiment not like '%-pilot'),
ranked as (
  select *, row_number() over (partition by run_id, variant, metric, rspin, app order by value) as k,
         count(*) over (partition by run_id, variant, metric, rspin, app) as n
  from vals),
med as (
  select run_id, variant, metric, rspin, app, avg(value) as m
  from ranked where k in ((n + 1) / 2, (n + 2) / 2) group by run_id, variant, metric, rspin, app),
ours as (
  select off.run_id, off.variant, off.metric, off.app, 100 * (1 - rspin_on.m / off.m) as gain
  from med off join med rspin_on
    on rspin_on.run_id = off.run_id and rspin_on.variant = off.variant
   and rspin_on.metric = off.metric and rspin_on.app = off.app
   and off.rspin = 0 and rspin_on.rspin = 1),
pairs as (
  select o.run_id, o.variant, o.metric, o.app, o.gain as ours, s.gain as seed
  from ours o join seed s on s.app = o.app),
ranks as (
  select p.*,
         (select count(*) from pairs q where q.run_id = p.run_id and q.variant = p.variant and q.metric = p.metric
                                         and q.ours < p.ours)
         + ((select count(*) from pairs q where q.run_id = p.run_id and q.variant = p.variant and q.metric = p.metric
                                            and q.ours = p.ours) + 1) / 2.0 as r_ours,
         (select count(*) from pairs q where q.run_id = p.run_id and q.variant = p.variant and q.metric = p.metric
                                         and q.seed < p.seed)
         + ((select count(*) from pairs q where q.run_id = p.run_id and q.variant = p.variant and q.metric = p.metric
                                            and q.seed = p.seed) + 1) / 2.0 as r_seed
  from pairs p),
centred as (
  select run_id, variant, metric,
         r_ours - avg(r_ours) over w as a, r_seed - avg(r_seed) over w as b
  from ranks window w as (partition by run_id, variant, metric))
select run_id as "run", variant, metric as "launch time", count(*) as "profiles",
       printf('%.2f', sum(a * b) / sqrt(sum(a * a) * sum(b * b))) as "Spearman rho"
from centred group by run_id, variant, metric order by run_id, variant, metric desc
