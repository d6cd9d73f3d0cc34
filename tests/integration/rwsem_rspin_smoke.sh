#!/usr/bin/env bash
# Seed 003 end to end (configs/rwsem-rspin-smoke.yaml): the app-launch program is compiled for
# arm64 and put in the image, the unpatched and the rwsem-patched kernels build (cached after the
# first time) and boot with 8 vCPUs, every boot stores one launch time per profile, and the
# patched kernel shows that rwsem.opt_rspin took effect: its boot log says so and readers
# acquired the lock by spinning only when it is on.
. "$(dirname "$0")/lib.sh"
config=$(dirname "$0")/../../configs/rwsem-rspin-smoke.yaml

"$BOOTBENCH" run "$config"
expect_eq "$(q "select count(*) from boots where outcome = 'ok'")" 3 "ok boots (control, off, on)"
expect_eq "$(q "select count(*) from metrics where name like 'launch.%' and value > 0")" 45 \
  "15 launch.<profile> values in each of the 3 boots"
expect_eq "$(q "select count(distinct name) from metrics where name like 'launch.%'")" 15 "15 profiles"
expect_eq "$(q "select count(*) from metrics where name = 'refscale_rwsem_ns' and value > 0")" 3 \
  "refscale rwsem in every boot"
cell() { # variant -> boot id
  q "select id from boots where json_extract(params_json, '$.variant') = '$1'"
}
metric() { # boot name -> value
  q "select value from metrics where boot_id = $1 and name = '$2'"
}
on=$(cell rspin-on)
off=$(cell rspin-off)
control=$(cell unpatched)
expect_eq "$(q "select count(*) from boots where params_not_applied is not null")" 0 \
  "every parameter took (the control is not given rwsem.opt_rspin)"
expect_eq "$(metric "$on" rwsem_opt_rspin)" 1.0 "the patched kernel reports the parameter on"
expect_eq "$(metric "$off" rwsem_opt_rspin)" 0.0 "and off without it"
expect_eq "$(metric "$control" rwsem_opt_rspin)" "" "the unpatched kernel knows no such parameter"
expect_eq "$(metric "$off" lockevent.rwsem_opt_rlock)" 0.0 "no reader spins when off"
[ "$(q "select value > 0 from metrics where boot_id = $on and name = 'lockevent.rwsem_opt_rlock'")" = 1 ] ||
  fail "readers took mmap_lock by spinning with rwsem.opt_rspin=1"
expect_eq "$(metric "$control" lockevent.rwsem_opt_rlock)" "" "the control has no reader-spin counter"
echo PASS
