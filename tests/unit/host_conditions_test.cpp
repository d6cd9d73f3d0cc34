#include "pipeline/boot_host_conditions.h"
#include "test_store.h"
#include "util/host_conditions.h"

#include <catch2/catch.hpp>

namespace fs = std::filesystem;

namespace {

// A host's proc and sys files as the reader sees them, under a private root.
void put(const bb::test::TempDir& root, const std::string& path, const std::string& text) {
    fs::create_directories((root / path).parent_path());
    bb::test::write_bytes(root / path, text);
}

std::string value(const std::vector<bb::HostCondition>& conditions, const std::string& name) {
    for (const auto& condition : conditions) {
        if (condition.name == name) {
            return condition.value;
        }
    }
    FAIL("no condition " << name);
    return {};
}

} // namespace

TEST_CASE("host conditions are read from proc and sys", "[host_conditions]") {
    bb::test::TempDir root;
    put(root, "proc/cpuinfo",
        "processor\t: 0\nmodel name\t: AMD EPYC 7B13\nmicrocode\t: 0xa0011d1\n\n"
        "processor\t: 1\nmodel name\t: AMD EPYC 7B13\nmicrocode\t: 0xa0011d1\n");
    put(root, "sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", "schedutil\n");
    put(root, "sys/devices/system/cpu/cpu1/cpufreq/scaling_governor", "performance\n");
    put(root, "sys/devices/system/cpu/intel_pstate/no_turbo", "1\n");
    put(root, "sys/devices/system/cpu/smt/control", "on\n");
    put(root, "sys/devices/system/cpu/isolated", "\n");
    put(root, "sys/devices/system/cpu/nohz_full", "(null)\n");
    put(root, "sys/kernel/mm/transparent_hugepage/enabled", "always [madvise] never\n");
    put(root, "sys/kernel/mm/transparent_hugepage/defrag",
        "always defer defer+madvise [madvise] never\n");
    put(root, "sys/kernel/mm/ksm/run", "1\n");
    put(root, "proc/sys/kernel/osrelease", "6.1.0-27-amd64\n");
    put(root, "proc/sys/kernel/version", "#1 SMP PREEMPT_DYNAMIC Debian 6.1.115-1\n");

    const auto conditions = bb::read_host_conditions(root.path());
    CHECK(value(conditions, "cpu_model") == "AMD EPYC 7B13");
    CHECK(value(conditions, "microcode") == "0xa0011d1");
    CHECK(value(conditions, "governor") == "performance,schedutil");
    CHECK(value(conditions, "boost") == "off"); // intel_pstate's no_turbo is inverted
    CHECK(value(conditions, "smt") == "on");
    CHECK(value(conditions, "thp") == "madvise");
    CHECK(value(conditions, "thp_defrag") == "madvise");
    CHECK(value(conditions, "ksm") == "running");
    CHECK(value(conditions, "isolated_cpus") == "none");
    CHECK(value(conditions, "nohz_full") == "none");
    CHECK(value(conditions, "host_kernel") ==
          "6.1.0-27-amd64 #1 SMP PREEMPT_DYNAMIC Debian 6.1.115-1");
}

TEST_CASE("a condition the host does not expose says so", "[host_conditions]") {
    bb::test::TempDir root; // a VM without cpufreq, SMT control or KSM: nothing to read
    const auto conditions = bb::read_host_conditions(root.path());
    REQUIRE(conditions.size() == 11);
    for (const auto& condition : conditions) {
        CHECK(condition.value == bb::k_not_exposed);
        CHECK(bb::noise_advice(condition).empty()); // nothing known, nothing advised
    }
}

TEST_CASE("advice names only the conditions that could be quieter", "[host_conditions]") {
    CHECK(bb::noise_advice({"governor", "powersave"}).find("performance") != std::string::npos);
    CHECK(bb::noise_advice({"governor", "performance"}).empty());
    CHECK_FALSE(bb::noise_advice({"boost", "on"}).empty());
    CHECK(bb::noise_advice({"boost", "off"}).empty());
    CHECK_FALSE(bb::noise_advice({"smt", "on"}).empty());
    CHECK(bb::noise_advice({"smt", "notsupported"}).empty());
    CHECK_FALSE(bb::noise_advice({"thp", "always"}).empty());
    CHECK(bb::noise_advice({"thp", "madvise"}).empty());
    CHECK_FALSE(bb::noise_advice({"ksm", "running"}).empty());
    CHECK_FALSE(bb::noise_advice({"isolated_cpus", "none"}).empty());
    CHECK(bb::noise_advice({"isolated_cpus", "2-3"}).empty());
}

TEST_CASE("changes between two nights' conditions are listed by name", "[host_conditions]") {
    const nlohmann::json before = {{"governor", "performance"}, {"qemu", "7.2.0"}, {"smt", "on"}};
    const nlohmann::json after = {{"governor", "schedutil"}, {"qemu", "7.2.0"}, {"ksm", "running"}};
    CHECK(bb::host_condition_changes(before, before).empty());
    using Change = bb::HostConditionChange;
    CHECK(bb::host_condition_changes(before, after) ==
          std::vector<Change>{{"governor", "performance", "schedutil"},
                              {"ksm", "(not recorded)", "running"},
                              {"smt", "on", "(not recorded)"}});
}

TEST_CASE("a boot on this machine stores its conditions once, a fleet host's none",
          "[host_conditions]") {
    bb::test::Store db;
    const long long run = db.run("conditions");
    bb::BootRecord here = db.record(run, R"({"hz":100})", 1.0);
    here.launcher = "qemu";
    here.argv = {"/nonexistent/qemu-system-aarch64"};
    here.host_conditions_json = bb::boot_host_conditions(here);
    REQUIRE(here.host_conditions_json);
    const auto stored = nlohmann::json::parse(*here.host_conditions_json);
    CHECK(stored.at("qemu") == bb::k_not_exposed); // that binary does not exist
    CHECK(stored.at("accel") == "tcg");
    db.store.insert_boot(here);
    bb::BootRecord again = db.record(run, R"({"hz":100})", 1.1);
    again.host_conditions_json = here.host_conditions_json;
    db.store.insert_boot(again);

    bb::BootRecord remote = db.record(run, R"({"hz":100})", 1.2);
    remote.launcher = "libvirt";
    remote.libvirt_uri = "qemu+ssh://builder/system";
    CHECK_FALSE(bb::boot_host_conditions(remote));
    db.store.insert_boot(remote);

    SQLite::Statement rows(db.db.sql(), "SELECT count(*), (SELECT count(*) FROM host_conditions) "
                                        "FROM boots WHERE host_conditions_id IS NOT NULL");
    REQUIRE(rows.executeStep());
    CHECK(rows.getColumn(0).getInt() == 2); // both local boots point at a row ...
    CHECK(rows.getColumn(1).getInt() == 1); // ... the same one
}
