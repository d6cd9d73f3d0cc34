// libvirt domain names: unique per database, so that one database's leftover cleanup on a
// shared host never destroys the domains of another database's run with the same number.
#include "store/boot_store.h"
#include "store/database_id.h"
#include "test_support.h"
#include "vm/libvirt_launcher.h"

#include <catch2/catch.hpp>
#include <chrono>
#include <string>
#include <thread>

namespace {
bool starts_with(const std::string& text, const std::string& prefix) {
    return text.rfind(prefix, 0) == 0;
}

std::string recorded_database_id(const std::filesystem::path& path) {
    bb::Database db(path);
    bb::BootStore(db).ensure_host(bb::test::bench_host_facts());
    return bb::database_id(db);
}
} // namespace

TEST_CASE("a database's id is stable and differs between databases", "[libvirt][naming]") {
    bb::test::TempDir dir;
    {
        bb::Database empty(dir / "empty.sqlite");
        CHECK(bb::database_id(empty).empty()); // nothing booted, nothing to name
    }
    const std::string first = recorded_database_id(dir / "a.sqlite");
    // The id comes from when the first host was recorded, to the millisecond.
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    const std::string second = recorded_database_id(dir / "b.sqlite");
    CHECK(first.size() == 8);
    CHECK(first.find_first_not_of("0123456789abcdef") == std::string::npos);
    CHECK(first != second); // same host, same facts: still two databases
    CHECK(recorded_database_id(dir / "a.sqlite") == first);
}

TEST_CASE("one run's cleanup prefix matches only its own database's domains", "[libvirt][naming]") {
    const std::string mine = bb::run_domain_prefix("1a2b3c4d", 7);
    CHECK(mine == "bootbench-1a2b3c4d-7-");
    CHECK(starts_with(mine + "3", mine));
    CHECK_FALSE(starts_with(bb::run_domain_prefix("9f8e7d6c", 7) + "3", mine));  // other database
    CHECK_FALSE(starts_with(bb::run_domain_prefix("1a2b3c4d", 71) + "3", mine)); // run 71
    CHECK_FALSE(starts_with("bootbench-7-3", mine)); // names of older bootbench versions
}

TEST_CASE("domains are named after the database and the run once it exists", "[libvirt][naming]") {
    bb::LibvirtLauncher::set_run_id(0, "");
    CHECK(starts_with(bb::LibvirtLauncher::domain_prefix(), "bootbench-pid"));
    bb::LibvirtLauncher::set_run_id(12, "1a2b3c4d");
    CHECK(bb::LibvirtLauncher::domain_prefix() == "bootbench-1a2b3c4d-12-");
    bb::LibvirtLauncher::set_run_id(0, "");
}
