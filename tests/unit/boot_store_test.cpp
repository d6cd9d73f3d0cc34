#include "store/boot_store.h"
#include "store/migrations.h"
#include "store/run_labels.h"
#include "test_support.h"
#include "util/gzip.h"

#include <SQLiteCpp/SQLiteCpp.h>
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>

using bb::BootOutcome;
using bb::BootRecord;
using bb::BootStore;
using bb::ConsoleEvent;

namespace {
bb::HostFacts host_facts(const std::string& fingerprint) {
    bb::HostFacts facts;
    facts.hostname = "bench-01";
    facts.kernel_release = "6.1.0-18-amd64";
    facts.cpu_model = "AMD EPYC 7763";
    facts.cpus = 2;
    facts.memory_bytes = 8LL * 1024 * 1024 * 1024; // does not fit in 32 bits
    facts.fingerprint = fingerprint;
    return facts;
}

int count_rows(bb::Database& db, const std::string& table) {
    return db.sql().execAndGet("SELECT count(*) FROM " + table).getInt();
}

// A boot with every optional field set, a console with a NUL-free but non-trivial log.
BootRecord sample_boot(long long run_id) {
    BootRecord boot;
    boot.run_id = run_id;
    boot.cell_key = "smp=2";
    boot.params_json = R"({"smp":2})";
    boot.repeat_index = 3;
    boot.arch = "arm64";
    boot.machine = "virt";
    boot.smp = 2;
    boot.memory_mb = 1024;
    boot.kernel_path = "/kernels/Image";
    boot.kernel_sha256 = std::string(64, 'a');
    boot.build_key = "build-1";
    boot.initrd_path = "/cache/initramfs.cpio.gz";
    boot.initrd_sha256 = std::string(64, 'b');
    boot.firmware_name = "QEMU_EFI.fd";
    boot.firmware_sha256 = std::string(64, 'c');
    boot.cmdline = "console=ttyAMA0 quiet";
    boot.argv = {"qemu-system-aarch64", "-append", "console=ttyAMA0 quiet"};
    boot.accel = "tcg";
    boot.accel_reason = "host is x86_64";
    boot.concurrency = 2;
    boot.foreign_load = 0.25;
    boot.outcome = BootOutcome::Ok;
    boot.outcome_reason = "end marker seen";
    boot.boot_seconds = 1.5;
    boot.guest_marker_seconds = 0.37;
    boot.first_byte_seconds = 0.01;
    boot.banner_seconds = 0.2;
    boot.run_init_seconds = 1.1;
    boot.wall_seconds = 4.75;
    boot.exit_status = 0;
    boot.console_bytes = 123456;
    boot.console_tail = "reboot: Power down\n";
    for (int i = 0; i < 2000; ++i) {
        boot.console_log +=
            "[    " + std::to_string(i) + ".000000] line " + std::to_string(i) + "\n";
    }
    boot.started_at = "2024-01-02T03:04:05.678Z";
    boot.events = {{ConsoleEvent::Kind::Banner, 0.2, 0.0, "Linux version 6.1"},
                   {ConsoleEvent::Kind::Marker, 1.5, 0.37, "boot-done"},
                   {ConsoleEvent::Kind::FirstByte, 0.01, std::nullopt, ""}};
    boot.metrics = {{"mem_free", 123456, "kB", 1.6}, {"modules", 42, "", 1.7}};
    boot.histograms = {{"initcall_us", 0, 100, 17}, {"initcall_us", 100, 1000, 3}};
    return boot;
}

struct Fixture {
    bb::test::TempDir dir;
    bb::Database db{dir / "store.sqlite"};
    BootStore store{db};
};
} // namespace

TEST_CASE("ensure_host is idempotent per fingerprint", "[store]") {
    Fixture f;
    const long long first = f.store.ensure_host(host_facts("fp-1"));
    CHECK(f.store.ensure_host(host_facts("fp-1")) == first);
    CHECK(count_rows(f.db, "hosts") == 1);
    const long long other = f.store.ensure_host(host_facts("fp-2"));
    CHECK(other != first);
    CHECK(count_rows(f.db, "hosts") == 2);

    SQLite::Statement row(f.db.sql(),
                          "SELECT hostname, cpus, memory_bytes FROM hosts WHERE id = ?");
    row.bind(1, static_cast<int64_t>(first));
    REQUIRE(row.executeStep());
    CHECK(row.getColumn(0).getString() == "bench-01");
    CHECK(row.getColumn(1).getInt() == 2);
    CHECK(row.getColumn(2).getInt64() == 8LL * 1024 * 1024 * 1024);
}

TEST_CASE("runs are begun and finished", "[store]") {
    Fixture f;
    const long long host = f.store.ensure_host(host_facts("fp"));
    bb::RunStart start;
    start.seed = 42;
    start.command_line = "bootbench boot --repeat 3";
    const long long run = f.store.begin_run(host, start);

    SQLite::Statement row(f.db.sql(), "SELECT host_id, mode, seed, status, command_line, "
                                      "tool_version, experiment_id, finished_at FROM runs "
                                      "WHERE id = ?");
    row.bind(1, static_cast<int64_t>(run));
    REQUIRE(row.executeStep());
    CHECK(row.getColumn(0).getInt64() == host);
    CHECK(row.getColumn(1).getString() == "boot");
    CHECK(row.getColumn(2).getInt64() == 42);
    CHECK(row.getColumn(3).getString() == "running");
    CHECK(row.getColumn(4).getString() == "bootbench boot --repeat 3");
    CHECK(row.getColumn(5).getString() == bb::tool_version());
    CHECK(row.getColumn(6).isNull());
    CHECK(row.getColumn(7).isNull());
    row.reset();

    f.store.finish_run(run, bb::RunStatus::Done);
    REQUIRE(row.executeStep());
    CHECK(row.getColumn(3).getString() == "done");
    CHECK_FALSE(row.getColumn(7).isNull());
}

// Issue 48 item 5b: the night-level gate's reference held the nights it had flagged, so a
// persistent regression became the reference in two nights. Only nights judged good count.
TEST_CASE("the nightly reference: nights judged ok, or flagged and accepted", "[store]") {
    Fixture f;
    const long long host = f.store.ensure_host(host_facts("fp"));
    bb::RunStart start;
    start.mode = "nightly";
    start.experiment_id = f.store.ensure_experiment("nightly-e", "name: nightly-e");
    std::vector<long long> nights;
    for (const char* verdict : {"ok", "regression", "ok", "regression", "regression"}) {
        nights.push_back(f.store.begin_run(host, start));
        f.store.finish_run(nights.back(), bb::RunStatus::Done);
        f.store.set_nightly_verdict(nights.back(), verdict, std::nullopt);
    }
    const long long unfinished = f.store.begin_run(host, start);
    (void)unfinished;
    using Runs = std::vector<long long>;
    CHECK(f.store.finished_nightlies("nightly-e", 10, true) == Runs{nights[2], nights[0]});
    CHECK(f.store.finished_nightlies("nightly-e", 10, false).size() == 5);
    bb::label_run(f.db, nights[3], {{"accepted"}, {}, std::nullopt});
    CHECK(f.store.finished_nightlies("nightly-e", 10, true) ==
          Runs{nights[3], nights[2], nights[0]});
    CHECK(f.store.finished_nightlies("nightly-e", 1, true) == Runs{nights[3]});
}

TEST_CASE("a boot round-trips with its events, metrics, histograms and console", "[store]") {
    Fixture f;
    const long long run = f.store.begin_run(f.store.ensure_host(host_facts("fp")), {});
    const BootRecord boot = sample_boot(run);
    const long long id = f.store.insert_boot(boot);

    SQLite::Statement row(
        f.db.sql(), "SELECT run_id, cell_key, params_json, repeat_index, arch, kernel_sha256, "
                    "build_key, firmware_name, cmdline, argv_json, accel, concurrency, "
                    "foreign_load, outcome, outcome_reason, boot_seconds, guest_marker_seconds, "
                    "wall_seconds, exit_status, exit_signal, console_bytes, console_tail, "
                    "console_gz, started_at FROM boots WHERE id = ?");
    row.bind(1, static_cast<int64_t>(id));
    REQUIRE(row.executeStep());
    CHECK(row.getColumn(0).getInt64() == run);
    CHECK(row.getColumn(1).getString() == "smp=2");
    CHECK(row.getColumn(2).getString() == R"({"smp":2})");
    CHECK(row.getColumn(3).getInt() == 3);
    CHECK(row.getColumn(4).getString() == "arm64");
    CHECK(row.getColumn(5).getString() == std::string(64, 'a'));
    CHECK(row.getColumn(6).getString() == "build-1");
    CHECK(row.getColumn(7).getString() == "QEMU_EFI.fd");
    CHECK(row.getColumn(8).getString() == "console=ttyAMA0 quiet");
    CHECK(nlohmann::json::parse(row.getColumn(9).getString()) == nlohmann::json(boot.argv));
    CHECK(row.getColumn(10).getString() == "tcg");
    CHECK(row.getColumn(11).getInt() == 2);
    CHECK(row.getColumn(12).getDouble() == 0.25);
    CHECK(row.getColumn(13).getString() == "ok");
    CHECK(row.getColumn(14).getString() == "end marker seen");
    CHECK(row.getColumn(15).getDouble() == 1.5);
    CHECK(row.getColumn(16).getDouble() == 0.37);
    CHECK(row.getColumn(17).getDouble() == 4.75);
    CHECK(row.getColumn(18).getInt() == 0);
    CHECK_FALSE(row.getColumn(18).isNull()); // exit status 0 is not "no exit status"
    CHECK(row.getColumn(19).isNull());
    CHECK(row.getColumn(20).getInt64() == 123456);
    CHECK(row.getColumn(21).getString() == "reboot: Power down\n");
    const auto gz = row.getColumn(22);
    const std::string compressed(static_cast<const char*>(gz.getBlob()),
                                 static_cast<size_t>(gz.getBytes()));
    CHECK(compressed.size() < boot.console_log.size());
    CHECK(bb::gzip_decompress(compressed) == boot.console_log);
    CHECK(row.getColumn(23).getString() == "2024-01-02T03:04:05.678Z");

    SQLite::Statement events(f.db.sql(), "SELECT host_seconds, guest_seconds, kind, text FROM "
                                         "boot_events WHERE boot_id = ? ORDER BY id");
    events.bind(1, static_cast<int64_t>(id));
    REQUIRE(events.executeStep());
    CHECK(events.getColumn(0).getDouble() == 0.2);
    CHECK(events.getColumn(1).getDouble() == 0.0);
    CHECK_FALSE(events.getColumn(1).isNull());
    CHECK(events.getColumn(2).getString() == "banner");
    CHECK(events.getColumn(3).getString() == "Linux version 6.1");
    REQUIRE(events.executeStep());
    CHECK(events.getColumn(2).getString() == "marker");
    CHECK(events.getColumn(3).getString() == "boot-done");
    CHECK(events.getColumn(1).getDouble() == 0.37);
    REQUIRE(events.executeStep());
    CHECK(events.getColumn(2).getString() == "first-byte");
    CHECK(events.getColumn(1).isNull());
    CHECK_FALSE(events.executeStep());

    SQLite::Statement metrics(f.db.sql(), "SELECT name, value, unit, host_seconds FROM metrics "
                                          "WHERE boot_id = ? ORDER BY id");
    metrics.bind(1, static_cast<int64_t>(id));
    REQUIRE(metrics.executeStep());
    CHECK(metrics.getColumn(0).getString() == "mem_free");
    CHECK(metrics.getColumn(1).getDouble() == 123456.0);
    CHECK(metrics.getColumn(2).getString() == "kB");
    CHECK(metrics.getColumn(3).getDouble() == 1.6);
    REQUIRE(metrics.executeStep());
    CHECK(metrics.getColumn(0).getString() == "modules");
    CHECK(metrics.getColumn(2).getString() == "");
    CHECK_FALSE(metrics.executeStep());

    SQLite::Statement buckets(f.db.sql(), "SELECT name, lo, hi, count FROM histograms "
                                          "WHERE boot_id = ? ORDER BY id");
    buckets.bind(1, static_cast<int64_t>(id));
    REQUIRE(buckets.executeStep());
    CHECK(buckets.getColumn(0).getString() == "initcall_us");
    CHECK(buckets.getColumn(1).getDouble() == 0.0);
    CHECK(buckets.getColumn(2).getDouble() == 100.0);
    CHECK(buckets.getColumn(3).getInt64() == 17);
    REQUIRE(buckets.executeStep());
    CHECK(buckets.getColumn(3).getInt64() == 3);
    CHECK_FALSE(buckets.executeStep());

    // The documented view joins it all up.
    CHECK(f.db.sql().execAndGet("SELECT host FROM v_boots").getString() == "bench-01");
}

TEST_CASE("unset optionals are stored as NULL", "[store]") {
    Fixture f;
    const long long run = f.store.begin_run(f.store.ensure_host(host_facts("fp")), {});
    BootRecord boot = sample_boot(run);
    boot.build_key.reset();
    boot.initrd_path.reset();
    boot.firmware_name.reset();
    boot.foreign_load.reset();
    boot.boot_seconds.reset();
    boot.exit_status.reset();
    boot.exit_signal = 9;
    boot.outcome = BootOutcome::Crash;
    boot.console_log.clear();
    const long long id = f.store.insert_boot(boot);
    SQLite::Statement row(f.db.sql(), "SELECT build_key IS NULL, initrd_path IS NULL, "
                                      "firmware_name IS NULL, foreign_load IS NULL, "
                                      "boot_seconds IS NULL, exit_status IS NULL, exit_signal, "
                                      "outcome, console_gz FROM boots WHERE id = ?");
    row.bind(1, static_cast<int64_t>(id));
    REQUIRE(row.executeStep());
    for (int column = 0; column < 6; ++column) {
        INFO("column " << column);
        CHECK(row.getColumn(column).getInt() == 1);
    }
    CHECK(row.getColumn(6).getInt() == 9);
    CHECK(row.getColumn(7).getString() == "crash");
    const auto gz = row.getColumn(8);
    CHECK(bb::gzip_decompress(std::string(static_cast<const char*>(gz.getBlob()),
                                          static_cast<size_t>(gz.getBytes()))) == "");
}

TEST_CASE("strange names are stored verbatim", "[store]") {
    Fixture f;
    const long long run = f.store.begin_run(f.store.ensure_host(host_facts("fp'; --")), {});
    const std::string strange = "it's \"odd\"; DROP TABLE boots; $(rm -rf /) `id` \\ %s";
    BootRecord boot = sample_boot(run);
    boot.cell_key = strange;
    boot.kernel_path = strange;
    boot.argv = {"qemu", strange};
    boot.metrics = {{strange, 1, strange, 0}};
    boot.events = {{ConsoleEvent::Kind::Marker, 1, std::nullopt, strange}};
    const long long id = f.store.insert_boot(boot);

    SQLite::Statement row(f.db.sql(),
                          "SELECT cell_key, kernel_path, argv_json FROM boots WHERE id = ?");
    row.bind(1, static_cast<int64_t>(id));
    REQUIRE(row.executeStep());
    CHECK(row.getColumn(0).getString() == strange);
    CHECK(row.getColumn(1).getString() == strange);
    CHECK(nlohmann::json::parse(row.getColumn(2).getString())[1] == strange);
    CHECK(f.db.sql().execAndGet("SELECT name FROM metrics").getString() == strange);
    CHECK(f.db.sql().execAndGet("SELECT unit FROM metrics").getString() == strange);
    CHECK(f.db.sql().execAndGet("SELECT text FROM boot_events").getString() == strange);
    CHECK(f.db.sql().execAndGet("SELECT fingerprint FROM hosts").getString() == "fp'; --");
    CHECK(count_rows(f.db, "boots") == 1);
}

TEST_CASE("a rejected boot leaves nothing behind", "[store]") {
    Fixture f;
    const long long run = f.store.begin_run(f.store.ensure_host(host_facts("fp")), {});
    f.store.insert_boot(sample_boot(run));

    BootRecord bad = sample_boot(run);
    bad.arch = "sparc"; // violates the CHECK constraint
    CHECK_THROWS(f.store.insert_boot(bad));
    BootRecord orphan = sample_boot(run + 1000); // no such run: foreign key
    CHECK_THROWS(f.store.insert_boot(orphan));

    CHECK(count_rows(f.db, "boots") == 1);
    CHECK(count_rows(f.db, "boot_events") == 3);
    CHECK(count_rows(f.db, "metrics") == 2);
    CHECK(count_rows(f.db, "histograms") == 2);
    // The store is still usable afterwards (no transaction left open).
    BootRecord next = sample_boot(run);
    next.repeat_index += 1;
    CHECK(f.store.insert_boot(next) > 0);
    CHECK(count_rows(f.db, "boots") == 2);
}

TEST_CASE("the latest accel probe is returned per host, arch and qemu version", "[store]") {
    Fixture f;
    const long long host = f.store.ensure_host(host_facts("fp"));
    CHECK_FALSE(f.store.latest_accel_probe(host, "x86_64", "8.2.1").has_value());
    f.store.insert_accel_probe(host, "x86_64", "8.2.1", {false, "no /dev/kvm", 0.5, ""});
    f.store.insert_accel_probe(host, "x86_64", "8.2.1", {true, "kvm works", 0.25, ""});
    f.store.insert_accel_probe(host, "arm64", "8.2.1", {false, "foreign arch", 0.0, ""});

    const auto probe = f.store.latest_accel_probe(host, "x86_64", "8.2.1");
    REQUIRE(probe.has_value());
    CHECK(probe->kvm_works);
    CHECK(probe->reason == "kvm works");
    CHECK(probe->seconds == 0.25);
    CHECK_FALSE(probe->probed_at.empty());
    CHECK_FALSE(f.store.latest_accel_probe(host, "x86_64", "9.0.0").has_value());
    CHECK(f.store.latest_accel_probe(host, "arm64", "8.2.1")->reason == "foreign arch");
}

TEST_CASE("utc_now_iso8601 has millisecond precision and a Z", "[store]") {
    const std::string now = bb::utc_now_iso8601();
    REQUIRE(now.size() == 24);
    CHECK(now[4] == '-');
    CHECK(now[10] == 'T');
    CHECK(now[19] == '.');
    CHECK(now.back() == 'Z');
}

TEST_CASE("a repeat is stored once per run, infra-errors may repeat", "[store]") {
    Fixture f;
    const long long host = f.store.ensure_host(host_facts("fp-1"));
    const long long run = f.store.begin_run(host, {});
    BootRecord lost = sample_boot(run);
    lost.outcome = BootOutcome::InfraError;
    lost.outcome_reason = "host lost";
    f.store.insert_boot(lost);
    f.store.insert_boot(lost); // a requeued sample's lost attempts are all kept
    f.store.insert_boot(sample_boot(run));
    CHECK_THROWS_AS(f.store.insert_boot(sample_boot(run)), bb::SampleAlreadyStored);
    CHECK(count_rows(f.db, "boots") == 3);
    BootRecord next = sample_boot(run);
    next.repeat_index += 1;
    f.store.insert_boot(next);
    CHECK(count_rows(f.db, "boots") == 4);
}

TEST_CASE("schema 7 turns twins stored before it into infra-errors, keeping the first",
          "[store][migrations]") {
    Fixture f;
    const long long host = f.store.ensure_host(host_facts("fp-1"));
    const long long run = f.store.begin_run(host, {});
    // A schema-6 database holding one repeat twice (two processes resumed one run).
    f.db.sql().exec("DROP INDEX boots_one_sample_per_repeat");
    const long long first = f.store.insert_boot(sample_boot(run));
    const long long twin = f.store.insert_boot(sample_boot(run));
    f.db.sql().exec("PRAGMA user_version = 6");
    // Schema 7 alone: the later ones are in place already (the fixture created them).
    auto through_7 = bb::bundled_migrations();
    std::erase_if(through_7, [](const bb::Migration& m) { return m.number > 7; });
    bb::migrate(f.db.sql(), through_7, "store.sqlite");
    auto outcome = [&](long long id) {
        return f.db.sql()
            .execAndGet("SELECT outcome || ' | ' || outcome_reason FROM boots WHERE id = " +
                        std::to_string(id))
            .getString();
    };
    CHECK(outcome(first) == "ok | end marker seen");
    CHECK(outcome(twin) == "infra-error | duplicate of boot " + std::to_string(first) +
                               " (the same repeat stored twice by two processes; was ok: end "
                               "marker seen)");
    CHECK_THROWS_AS(f.store.insert_boot(sample_boot(run)), bb::SampleAlreadyStored);
}
