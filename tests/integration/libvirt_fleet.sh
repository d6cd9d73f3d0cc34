#!/usr/bin/env bash
# A run spread over a fleet of two libvirt "hosts" (the test's private libvirtd reached two
# ways: qemu:///system and qemu+tcp through a loopback proxy we can freeze). Samples record their
# host; reports split by host. Freezing the proxy mid-run partitions that host: bootbench's
# keepalive gives up on it, its sample in flight is stored as infra-error naming the host, booted
# again on the other host, and the run completes.
#
# Why freeze and not kill: both "hosts" are one daemon here. A closed connection makes libvirtd
# autodestroy that connection's domain inside its event loop, which stops it forwarding the
# other host's console for seconds; qemu then loses that guest's output (seen: 2 runs of 5 lost
# the surviving guest's marker). A frozen connection is closed only after the run, when no
# guest is left to starve; the daemon's own keepalive is off (libvirt_lib.sh) so it does not
# close it sooner.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/libvirt_lib.sh"
libvirt_start
command -v socat >/dev/null || { echo "SKIP: socat not installed (scripts/setup.sh)" >&2; exit 77; }
config=$(dirname "$0")/../../configs/smoke-matrix.yaml
proxy_port=$(libvirt_free_port)
proxy_uri="qemu+tcp://127.0.0.1:$proxy_port/system"
proxy_pid=
start_proxy() {
  socat "TCP-LISTEN:$proxy_port,bind=127.0.0.1,reuseaddr,fork" "TCP:127.0.0.1:$libvirt_tcp_port" &
  proxy_pid=$!
  for _ in $(seq 50); do virsh -c "$proxy_uri" version >/dev/null 2>&1 && return 0; sleep 0.2; done
  fail "the loopback proxy does not reach libvirtd"
}
# socat forks a child per connection: the proxy is the listener and those children.
proxy_processes() { echo "$proxy_pid" $(pgrep -P "$proxy_pid"); }
# A partitioned host: its connections stay open but nothing passes.
freeze_proxy() { kill -STOP $(proxy_processes) 2>/dev/null || true; }
stop_proxy() {
  [ -n "$proxy_pid" ] || return 0
  local pids
  pids=$(proxy_processes)
  kill -KILL $pids 2>/dev/null || true
  proxy_pid=
}
trap 'stop_proxy; libvirt_stop || true; rm -rf "$work"' EXIT
start_proxy
cat >"$work/fleet.yaml" <<YAML
hosts:
  - {uri: 'qemu:///system', slots: 1}
  - {uri: '$proxy_uri', slots: 1}
YAML

# Fleet errors are located like every experiment error.
printf 'hosts:\n  - {uri: lab1}\n' >"$work/bad.yaml"
if "$BOOTBENCH" run "$config" --hosts "$work/bad.yaml" --validate 2>"$work/bad.err"; then fail "bad fleet accepted"; fi
grep -q "bad.yaml:2:11: uri: \"lab1\" is not a libvirt URI" "$work/bad.err" || fail "fleet error: $(cat "$work/bad.err")"

# A healthy fleet run: every sample ok, both hosts used, report grouped by host.
"$BOOTBENCH" run "$config" --hosts "$work/fleet.yaml" --json >"$work/run.json"
run_id=$(q "select id from runs where seed = 1")
expect_eq "$(q "select count(*) from boots where run_id = $run_id and outcome = 'ok' and launcher = 'libvirt'")" 4 "ok samples"
expect_eq "$(q "select count(distinct host_id) from boots where run_id = $run_id")" 2 "both hosts booted samples"
expect_eq "$(q "select count(*) from boots where run_id = $run_id and host_id is null")" 0 "every sample names its host"
"$BOOTBENCH" report --run "$run_id" >"$work/report.txt" 2>&1 || fail "report failed: $(cat "$work/report.txt")"
grep -q "groups by cell, host" "$work/report.txt" || fail "report not split by host: $(cat "$work/report.txt")"
grep -q " qemu:///system " "$work/report.txt" || fail "report lacks the local host"
grep -q " $proxy_uri " "$work/report.txt" || fail "report lacks the tcp host"
# Status first, then what must be there, then what must not: a crashing report cannot pass.
"$BOOTBENCH" report --run "$run_id" --pool-hosts >"$work/pooled.txt" 2>&1 ||
  fail "report --pool-hosts failed: $(cat "$work/pooled.txt")"
grep -q "groups\? by cell$" "$work/pooled.txt" || fail "--pool-hosts report: $(cat "$work/pooled.txt")"
if grep -q "qemu:///system\|by cell, host" "$work/pooled.txt"; then fail "--pool-hosts still splits"; fi

# Partition the proxied host while both hosts boot: the run still completes.
"$BOOTBENCH" run "$config" --hosts "$work/fleet.yaml" --seed 2 >"$work/lost.log" 2>&1 &
pid=$!
for _ in $(seq 1 1200); do
  [ "$(libvirt_domain_count)" -ge 2 ] && break
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.25
done
[ "$(libvirt_domain_count)" -ge 2 ] || fail "never saw both hosts booting: $(cat "$work/lost.log")"
freeze_proxy
wait "$pid" || fail "the run failed after losing a host: $(tail -20 "$work/lost.log")"
run_id=$(q "select id from runs where seed = 2")
expect_eq "$(q "select status from runs where id = $run_id")" done "run completed"
expect_eq "$(q "select count(*) from (select cell_key, repeat_index from boots where run_id = $run_id and outcome = 'ok' group by 1, 2)")" 4 "every sample ok once"
lost=$(q "select count(*) from boots where run_id = $run_id and outcome = 'infra-error' and outcome_reason like 'host $proxy_uri stopped answering%'")
[ "$lost" -ge 1 ] || fail "the lost host's sample was not recorded: $(q "select outcome, outcome_reason from boots where run_id = $run_id")"
grep -q "host $proxy_uri lost" "$work/lost.log" || fail "the run did not say the host was lost"
"$BOOTBENCH" report --run "$run_id" >"$work/lost-report.txt" 2>&1 ||
  fail "report of the run with a lost host failed: $(cat "$work/lost-report.txt")"
grep -q "host $proxy_uri was lost" "$work/lost-report.txt" || fail "report does not name the lost host"
# Closing the partitioned connection lets the daemon autodestroy what it still started there.
stop_proxy
for _ in $(seq 1 100); do [ "$(libvirt_domain_count)" -eq 0 ] && break; sleep 0.2; done
expect_eq "$(libvirt_domain_count)" 0 "no domain left"
libvirt_stop
echo PASS
