// bootbench export --format kcidb: boots as KCIDB v4.5 tests, on their builds, from their sources
// (docs/kcidb.md). Validation against the published schema: tests/integration/kcidb_export.sh.
#include "kcidb/json_finite.h"
#include "kcidb/kcidb_document.h"
#include "kcidb/kcidb_ids.h"
#include "kcidb/kcidb_schema.h"
#include "kcidb/kcidb_status.h"
#include "store/build_store.h"
#include "store/export.h"
#include "store/kcidb_rows.h"
#include "test_store.h"
#include "util/error.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <set>

namespace {
using bb::BootOutcome;
using nlohmann::json;

constexpr double k_inf = std::numeric_limits<double>::infinity();
const std::string k_source = "debian-package:linux-source-6.12=6.12.118-1~deb12u1";

bb::BuildRow build_row(const std::string& key, const std::string& patches_json,
                       const std::string& patch_prefix) {
    bb::BuildRow row;
    row.key = key;
    row.arch = "arm64";
    row.source_identity = k_source;
    row.patches_json = patches_json;
    row.base_config = "tinyconfig";
    row.fragments_json = R"(["arm64-virt-minimal.config"])";
    row.hz = 250;
    row.config_sha256 = std::string(64, 'c');
    row.toolchain = "aarch64-linux-gnu-gcc 12.2.0";
    row.target = "Image";
    row.artifact_dir = "/nonexistent";
    row.image_sha256 = std::string(64, 'd');
    row.image_bytes = 4096;
    row.build_seconds = 444.5;
    row.explain = "build key inputs:\n  source  51 bytes  sha256:977824df61467074  debian\n";
    if (!patch_prefix.empty()) {
        row.explain += "  patch  1391 bytes  sha256:" + patch_prefix + "  srcu: identify\n";
    }
    return row;
}

const json& test_of(const json& document, long long boot_id) {
    for (const auto& test : document["tests"]) {
        if (test["misc"]["boot_id"] == boot_id) {
            return test;
        }
    }
    FAIL("no test for boot " << boot_id);
    return document;
}

const json& object_with_id(const json& list, const std::string& id) {
    for (const auto& object : list) {
        if (object["id"] == id) {
            return object;
        }
    }
    FAIL("no object with id " << id);
    return list;
}

std::vector<std::string> ids(const json& document, const char* kind) {
    std::vector<std::string> list;
    for (const auto& object : document[kind]) {
        list.push_back(object["id"].get<std::string>());
    }
    return list;
}

json export_all(bb::Database& db) {
    return bb::kcidb_document(bb::read_kcidb_rows(db, {}));
}
} // namespace

TEST_CASE("every boot outcome maps to the KCIDB status the schema defines for it") {
    CHECK(bb::kcidb_status("ok", false) == "DONE");
    CHECK(bb::kcidb_status("ok", true) == "ERROR");
    CHECK(bb::kcidb_status("timeout", false) == "FAIL");
    CHECK(bb::kcidb_status("silent", false) == "FAIL");
    CHECK(bb::kcidb_status("panic", false) == "FAIL");
    CHECK(bb::kcidb_status("crash", false) == "ERROR");
    CHECK(bb::kcidb_status("infra-error", false) == "MISS");
    CHECK(bb::test::thrown_message<bb::Error>([] { bb::kcidb_status("exploded", false); }) ==
          "a boot's outcome 'exploded' is not one bootbench knows");
    CHECK(bb::kcidb_status_ran("DONE"));
    CHECK(bb::kcidb_status_ran("FAIL"));
    CHECK(bb::kcidb_status_ran("ERROR"));
    CHECK_FALSE(bb::kcidb_status_ran("MISS"));
    CHECK_FALSE(bb::kcidb_status_ran("SKIP"));
}

TEST_CASE("a boot's test carries its status, its boot time in seconds, and finite numbers only") {
    bb::test::Store s;
    const long long run = s.run("aa-nightly");
    const long long ok = s.boot(run, R"({"variant":"a"})", 1.5, BootOutcome::Ok, 0.0,
                                {{"storm", 2.5, "s", 1.0}, {"broken", k_inf, "s", 1.0}});
    auto hung = s.record(run, R"({"variant":"b"})", std::nullopt, BootOutcome::Timeout);
    hung.console_tail = "rcu: INFO: rcu_sched self-detected stall on CPU";
    const long long timeout = s.store.insert_boot(hung);
    const long long lost = s.boot(run, R"({"variant":"c"})", 2.0, BootOutcome::InfraError);
    auto odd = s.record(run, R"({"variant":"d"})", 1.25);
    odd.params_not_applied = "param-not-applied: rcutree.x=1";
    const long long not_applied = s.store.insert_boot(odd);
    const long long loaded = s.boot(run, R"({"variant":"e"})", 3.0, BootOutcome::Ok, 0.9, {}, true);
    const long long infinite = s.boot(run, R"({"variant":"f"})", k_inf);

    const json document = export_all(s.db);
    CHECK(document["version"] == json({{"major", 4}, {"minor", 5}}));
    CHECK(document["tests"].size() == 6);
    CHECK_NOTHROW(bb::require_finite_numbers(document));

    const json& done = test_of(document, ok);
    CHECK(done["status"] == "DONE");
    CHECK(done["number"] == json({{"value", 1.5}, {"unit", "s"}, {"prefix", "metric"}}));
    CHECK(done["duration"] == 9.5);
    CHECK(done["path"] == "boot.aa-nightly");
    CHECK(done["origin"] == "bootbench");
    CHECK(done["misc"]["metrics"] == json::parse(R"([{"name":"storm","value":2.5,"unit":"s"}])"));
    CHECK(done["misc"]["seconds"]["boot"] == 1.5);
    CHECK(done["misc"]["used"] == true);
    CHECK_FALSE(done.contains("log_excerpt"));

    const json& failed = test_of(document, timeout);
    CHECK(failed["status"] == "FAIL");
    CHECK_FALSE(failed.contains("number"));
    CHECK(failed["log_excerpt"] == "rcu: INFO: rcu_sched self-detected stall on CPU");
    CHECK(failed["misc"]["used"] == false);

    CHECK(test_of(document, lost)["status"] == "MISS");
    CHECK_FALSE(test_of(document, lost).contains("number")); // it never ran

    const json& error = test_of(document, not_applied);
    CHECK(error["status"] == "ERROR");
    CHECK(error["number"]["value"] == 1.25);
    CHECK(error["misc"]["params_not_applied"] == "param-not-applied: rcutree.x=1");

    CHECK(test_of(document, loaded)["status"] == "DONE");
    CHECK(test_of(document, loaded)["misc"]["loaded"] == true);
    CHECK(test_of(document, loaded)["misc"]["used"] == false);

    CHECK(test_of(document, infinite)["status"] == "DONE");
    CHECK_FALSE(test_of(document, infinite).contains("number"));
    CHECK_FALSE(test_of(document, infinite)["misc"]["seconds"].contains("boot"));
}

TEST_CASE("ids are the origin's, distinct per boot and stable across exports of the same data") {
    bb::test::Store s;
    bb::BuildStore builds(s.db);
    builds.record(build_row(std::string(64, '1'), "[]", ""));
    const long long run = s.run("aa-nightly");
    for (const char* variant : {R"({"variant":"a"})", R"({"variant":"b"})"}) {
        auto boot = s.record(run, variant, 1.5);
        boot.build_key = std::string(64, '1');
        s.store.insert_boot(boot);
    }
    s.boot(s.run("other"), R"({"variant":"a"})", 1.7);

    const json first = export_all(s.db);
    CHECK(export_all(s.db) == first);
    const auto copy = s.dir / "copy.sqlite";
    bb::export_runs(s.db, {}, copy);
    bb::Database copied(copy, bb::Database::Mode::ReadOnly);
    const json again = export_all(copied);
    for (const char* kind : {"checkouts", "builds", "tests"}) {
        CHECK(ids(again, kind) == ids(first, kind));
    }

    const auto tests = ids(first, "tests");
    CHECK(std::set<std::string>(tests.begin(), tests.end()).size() == 3);
    for (const char* kind : {"checkouts", "builds", "tests"}) {
        for (const auto& object : first[kind]) {
            CHECK(object["origin"] == "bootbench");
            CHECK(object["id"].get<std::string>().rfind("bootbench:", 0) == 0);
        }
    }
    // Every test names a build of the document, every build a checkout of it.
    for (const auto& test : first["tests"]) {
        const json& build = object_with_id(first["builds"], test["build_id"]);
        object_with_id(first["checkouts"], build["checkout_id"]);
    }
    const json& built = object_with_id(first["builds"], "bootbench:" + std::string(64, '1'));
    CHECK(built["architecture"] == "arm64");
    CHECK(built["duration"] == 444.5);
    CHECK(built["valid"] == true);
    CHECK(built["config_name"] == "tinyconfig+arm64-virt-minimal.config");
    CHECK(built["checkout_id"] == "bootbench:" + k_source);
}

TEST_CASE("a patched source is a checkout of its own, and kernels not built here share one") {
    bb::test::Store s;
    bb::BuildStore builds(s.db);
    builds.record(build_row(std::string(64, '1'), "[]", ""));
    const auto patched =
        build_row(std::string(64, '2'), R"(["0001-srcu.patch"])", "3bfa6fa4f71fa217");
    builds.record(patched);
    const long long run = s.run("ab");
    for (const char digit : {'1', '2'}) {
        auto boot = s.record(run, std::string(R"({"variant":")") + digit + "\"}", 1.5);
        boot.build_key = std::string(64, digit);
        s.store.insert_boot(boot);
    }
    s.boot(run, R"({"variant":"prebuilt"})", 1.9); // no build key: `boot --kernel`

    const json document = export_all(s.db);
    CHECK(document["checkouts"].size() == 3);
    const json& stock = object_with_id(document["checkouts"], "bootbench:" + k_source);
    CHECK(stock["patchset_hash"] == ""); // the schema's "no patches applied"
    const std::string patched_id = bb::kcidb_checkout_id(patched);
    CHECK(patched_id.rfind("bootbench:" + k_source + "+patches-", 0) == 0);
    const json& with_patch = object_with_id(document["checkouts"], patched_id);
    CHECK_FALSE(with_patch.contains("patchset_hash")); // whole patch hashes are not stored
    CHECK(with_patch["misc"]["patches"] ==
          json::parse(R"([{"name":"0001-srcu.patch","sha256_prefix":"3bfa6fa4f71fa217"}])"));
    CHECK(with_patch["comment"] == "Debian linux-source-6.12 6.12.118-1~deb12u1, 1 patch(es)");
    // Other patch bytes under the same name are another checkout.
    CHECK(bb::kcidb_checkout_id(build_row(std::string(64, '3'), R"(["0001-srcu.patch"])",
                                          "0000000000000000")) != patched_id);

    const json& prebuilt =
        object_with_id(document["builds"], "bootbench:kernel-" + std::string(64, 'a'));
    CHECK(prebuilt["checkout_id"] == "bootbench:unknown-source");
    CHECK(prebuilt["architecture"] == "arm64");
    object_with_id(document["checkouts"], "bootbench:unknown-source");
}

TEST_CASE("a build whose patch list is not a list of names is an error naming the build") {
    CHECK(bb::test::thrown_message<bb::Error>([] {
              bb::kcidb_patches(build_row("0123456789abcdef", R"({"a":1})", ""));
          }) == R"(build 0123456789ab: its patch list is not a JSON list: {"a":1})");
    CHECK(bb::test::thrown_message<bb::Error>([] {
              bb::kcidb_patches(build_row("0123456789abcdef", "[1]", ""));
          }) == "build 0123456789ab: its patch list holds 1, not a name");
}

TEST_CASE("a test path names the experiment in the characters the schema allows") {
    CHECK(bb::kcidb_test_path("") == "boot");
    CHECK(bb::kcidb_test_path("aa-nightly-10x8") == "boot.aa-nightly-10x8");
    CHECK(bb::kcidb_test_path("srcu phase/table.v2") == "boot.srcu_phase_table_v2");
}

TEST_CASE("a number that is not finite is refused, naming where it is") {
    const json document = {{"tests", {{{"number", {{"value", std::nan("")}}}}}}};
    CHECK(bb::test::thrown_message<bb::Error>([&] { bb::require_finite_numbers(document); }) ==
          "/tests/0/number/value is nan, not a finite number: JSON cannot hold it");
    CHECK_NOTHROW(bb::require_finite_numbers({{"value", 1.5}, {"count", 3}}));
}

TEST_CASE("a KCIDB export of a run that is not in the database is an error") {
    bb::test::Store s;
    s.run("kept");
    CHECK(bb::test::thrown_message<bb::Error>([&] {
              bb::read_kcidb_rows(s.db, {99});
          }).find("no run 99 in ") == 0);
}

// Issue 48 item 13: a newline in a stored source identity made ids the schema's pattern refuses,
// a local tree's host path reached the document, a stored time that is not one was written as a
// date-time, and boots started in the same millisecond shared a test id.
TEST_CASE("hostile stored values give ids the schema takes, no host path, no false date") {
    bb::test::Store s;
    bb::BuildStore builds(s.db);
    auto local = build_row(std::string(64, '1'), "[]", "");
    local.source_identity = "local:/home/someone/linux@1700000000";
    builds.record(local);
    auto broken = build_row(std::string(64, '2'), "[]", "");
    broken.source_identity = "debian-package:linux-source-6.12=1\nb";
    builds.record(broken);
    for (const auto& key : {std::string(64, '1'), std::string(64, '2'), std::string(64, '2')}) {
        auto boot = s.record(s.run("e"), R"({"variant":"a"})", 1.5);
        boot.build_key = key;
        boot.started_at = "garbage";
        s.store.insert_boot(boot);
    }
    // Three runs started in the same millisecond, each boot the same cell and repeat: on
    // 0376977 their tests shared one id.
    s.db.sql().exec("UPDATE runs SET started_at = '2024-01-01T00:00:00.000Z'; "
                    "UPDATE boots SET repeat_index = 0");
    const json document = export_all(s.db);
    const std::string text = document.dump();
    CHECK(text.find("/home/someone") == std::string::npos);
    for (const char* kind : {"checkouts", "builds", "tests"}) {
        for (const auto& object : document[kind]) {
            const std::string id = object["id"].get<std::string>();
            CHECK(id.find_first_of("\n\r") == std::string::npos);
            CHECK(id.rfind("bootbench:", 0) == 0);
        }
    }
    const auto tests = ids(document, "tests");
    CHECK(std::set<std::string>(tests.begin(), tests.end()).size() == 3);
    for (const auto& test : document["tests"]) {
        CHECK_FALSE(test.contains("start_time"));
    }
    CHECK(bb::kcidb_date_time("2026-12-02T00:26:09.768Z"));
    CHECK(bb::kcidb_date_time("2026-12-02T00:26:09Z"));
    CHECK_FALSE(bb::kcidb_date_time("2026-12-02 00:26:09"));
    CHECK_FALSE(bb::kcidb_date_time("2026-12-02T00:26:09.Z"));
}

TEST_CASE("the document is checked against the shipped schema: what breaks it is refused") {
    const json schema = json::parse(bb::kcidb_schema_text());
    CHECK(schema["title"] == "kcidb");
    bb::test::Store s;
    bb::BuildStore builds(s.db);
    builds.record(build_row(std::string(64, '1'), "[]", ""));
    auto boot = s.record(s.run("e"), R"({"variant":"a"})", 1.5);
    boot.build_key = std::string(64, '1');
    s.store.insert_boot(boot);
    const json document = export_all(s.db); // valid: kcidb_document checked it
    CHECK_NOTHROW(bb::require_kcidb_schema(document));
    const auto refusal = [](const json& broken) {
        try {
            bb::require_kcidb_schema(broken);
        } catch (const bb::Error& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    json newline = document;
    newline["tests"][0]["id"] = "bootbench:a\nb";
    CHECK_THAT(refusal(newline),
               Catch::Contains(R"(/tests/0/id: "bootbench:a\nb" does not match)"));
    json date = document;
    date["tests"][0]["start_time"] = "garbage";
    CHECK_THAT(refusal(date),
               Catch::Contains(R"(/tests/0/start_time: "garbage" is not a date-time)"));
    json twice = document;
    twice["tests"].push_back(twice["tests"][0]);
    CHECK_THAT(refusal(twice),
               Catch::Contains("/tests/1/id: ") && Catch::Contains("is the id of an earlier one"));
    json path = document;
    path["checkouts"][0]["git_repository_url"] = "/home/someone/linux";
    CHECK_THAT(refusal(path), Catch::Contains("/checkouts/0/git_repository_url"));
}
