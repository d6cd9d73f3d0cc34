// Samples of a fleet run: each boot records its host and how it was launched; summaries and
// reports never pool hosts unless asked, and name the hosts that were lost.
#include "report/host_split.h"
#include "report/run_summary.h"
#include "report/sample_query.h"
#include "store/boot_store.h"
#include "test_support.h"

#include <SQLiteCpp/SQLiteCpp.h>
#include <catch2/catch.hpp>
#include <string>

using bb::BootOutcome;
using bb::BootRecord;

namespace {
bb::HostFacts libvirt_host(const std::string& uri) {
    bb::HostFacts facts = bb::test::bench_host_facts();
    facts.fingerprint = "fp-" + uri;
    return facts;
}

BootRecord sample(long long run_id, long long host_id, int repeat, double seconds) {
    BootRecord record;
    record.run_id = run_id;
    record.host_id = host_id;
    record.cell_key = "hz=250";
    record.params_json = R"({"hz":250})";
    record.repeat_index = repeat;
    record.arch = "x86_64";
    record.machine = "q35";
    record.smp = 1;
    record.memory_mb = 512;
    record.kernel_path = "/k/bzImage";
    record.kernel_sha256 = std::string(64, 'a');
    record.cmdline = "console=ttyS0";
    record.argv = {"/usr/bin/qemu-system-x86_64", "-name", "guest=bootbench-1-1"};
    record.launcher = "libvirt";
    record.domain_xml = "<domain type='qemu'><name>bootbench-1-1</name></domain>";
    record.accel = "tcg";
    record.accel_reason = "test";
    record.outcome = BootOutcome::Ok;
    record.outcome_reason = "guest powered off";
    record.boot_seconds = seconds;
    record.wall_seconds = seconds + 1;
    record.started_at = "2026-11-30T00:00:00.000Z";
    return record;
}

struct Fleet {
    bb::test::TempDir dir;
    bb::Database db{dir / "fleet.sqlite"};
    bb::BootStore store{db};
    long long local = store.ensure_host(bb::test::bench_host_facts());
    long long a = store.ensure_host(libvirt_host("qemu:///system"), "qemu:///system");
    long long b = store.ensure_host(libvirt_host("qemu+tcp://127.0.0.1/system"),
                                    "qemu+tcp://127.0.0.1/system");
    long long run = store.begin_run(local, bb::RunStart{});
};
} // namespace

TEST_CASE("a libvirt boot stores its host, launcher, URI and domain XML", "[fleet]") {
    Fleet f;
    BootRecord record = sample(f.run, f.a, 0, 2.0);
    record.libvirt_uri = "qemu:///system";
    const long long id = f.store.insert_boot(record);
    SQLite::Statement row(f.db.sql(), "SELECT b.launcher, b.libvirt_uri, b.domain_xml, "
                                      "h.libvirt_uri FROM boots b JOIN hosts h ON h.id = "
                                      "b.host_id WHERE b.id = ?");
    row.bind(1, static_cast<int64_t>(id));
    REQUIRE(row.executeStep());
    CHECK(row.getColumn(0).getString() == "libvirt");
    CHECK(row.getColumn(1).getString() == "qemu:///system");
    CHECK(row.getColumn(2).getString() == record.domain_xml);
    CHECK(row.getColumn(3).getString() == "qemu:///system");
}

TEST_CASE("a qemu boot without a host keeps the defaults", "[fleet]") {
    Fleet f;
    BootRecord record = sample(f.run, 0, 0, 2.0);
    record.host_id.reset();
    record.launcher = "qemu";
    record.domain_xml.clear();
    const long long id = f.store.insert_boot(record);
    SQLite::Statement row(f.db.sql(), "SELECT launcher, host_id IS NULL, domain_xml IS NULL "
                                      "FROM boots WHERE id = ?");
    row.bind(1, static_cast<int64_t>(id));
    REQUIRE(row.executeStep());
    CHECK(row.getColumn(0).getString() == "qemu");
    CHECK(row.getColumn(1).getInt() == 1);
    CHECK(row.getColumn(2).getInt() == 1);
}

TEST_CASE("a run over two hosts is summarised per cell and host", "[fleet]") {
    Fleet f;
    f.store.insert_boot(sample(f.run, f.a, 0, 2.0));
    f.store.insert_boot(sample(f.run, f.b, 1, 3.0));
    f.store.insert_boot(sample(f.run, f.a, 2, 2.2));
    const auto cells = bb::load_run_results(f.db, f.run);
    REQUIRE(cells.size() == 2);
    CHECK(cells[0].host == "qemu:///system");
    CHECK(cells[0].ok == 2);
    CHECK(cells[1].host == "qemu+tcp://127.0.0.1/system");
    CHECK(cells[1].ok == 1);
    CHECK(bb::render_run_summary(cells).find("hz=250 @qemu+tcp://127.0.0.1/system") !=
          std::string::npos);
}

TEST_CASE("reports split by host unless hosts are pooled", "[fleet]") {
    Fleet f;
    f.store.insert_boot(sample(f.run, f.a, 0, 2.0));
    f.store.insert_boot(sample(f.run, f.b, 1, 3.0));
    BootRecord lost = sample(f.run, f.b, 2, 0);
    lost.outcome = BootOutcome::InfraError;
    lost.boot_seconds.reset();
    lost.outcome_reason = "host qemu+tcp://127.0.0.1/system stopped answering: connection closed";
    f.store.insert_boot(lost);

    bb::SampleQuery query;
    query.run_ids = {f.run};
    const bb::SampleSet split = bb::query_samples(f.db, bb::split_by_host(f.db, query));
    CHECK(split.axes == std::vector<std::string>{"cell", "host"});
    REQUIRE(split.groups.size() == 2);
    CHECK(bb::group_label(split.axes, split.groups[0].key) ==
          "cell=hz=250 host=qemu+tcp://127.0.0.1/system");
    CHECK(split.groups[0].failed == 1);

    const bb::SampleSet pooled = bb::query_samples(f.db, query);
    CHECK(pooled.groups.size() == 1);
    query.by = {"host"};
    CHECK(bb::split_by_host(f.db, query).by == std::vector<std::string>{"host"});

    const auto notes = bb::lost_host_notes(f.db, query);
    REQUIRE(notes.size() == 1);
    CHECK(notes[0] == "host qemu+tcp://127.0.0.1/system was lost: 1 sample(s) booted again "
                      "elsewhere (host qemu+tcp://127.0.0.1/system stopped answering: "
                      "connection closed)");
}

TEST_CASE("a run on one host is not split", "[fleet]") {
    Fleet f;
    f.store.insert_boot(sample(f.run, f.a, 0, 2.0));
    f.store.insert_boot(sample(f.run, f.a, 1, 2.1));
    bb::SampleQuery query;
    query.run_ids = {f.run};
    CHECK(bb::split_by_host(f.db, query).by.empty());
    CHECK(bb::load_run_results(f.db, f.run).front().host.empty());
}
