#include "console/console_monitor.h"
#include "console/initcall_trace.h"
#include "guest/init_script.h"

#include <catch2/catch.hpp>
#include <string>

using bb::InitcallTrace;
using bb::InitcallTraceState;

namespace {
InitcallTrace fed(const std::vector<std::string>& lines) {
    InitcallTrace trace;
    for (const auto& line : lines) {
        trace.feed(line);
    }
    return trace;
}
} // namespace

TEST_CASE("a complete dump gives each initcall's start, duration, return and module",
          "[initcalls]") {
    const auto trace =
        fed({"begin", "first [    0.000000] Booting Linux on physical CPU 0x0",
             "[    0.061205] calling  pl011_init+0x0/0x48 @ 1",
             "[    0.063101] initcall pl011_init+0x0/0x48 returned 0 after 1866 usecs",
             "[    0.070000] calling  foo.isra.0+0x0/0x10 @ 1",
             "[    0.070100] initcall foo.isra.0+0x0/0x10 returned -19 after 90 usecs",
             "[    0.500000] Run /init as init process",
             "[    0.600000] calling  virtio_blk_init+0x0/0x1000 [virtio_blk] @ 70",
             "[    0.600000] initcall virtio_blk_init+0x0/0x1000 [virtio_blk] "
             "returned 0 after 12 usecs",
             "end"});
    REQUIRE(trace.state() == InitcallTraceState::Complete);
    REQUIRE(trace.records().size() == 3);
    CHECK(trace.records()[0].name == "pl011_init");
    CHECK(trace.records()[0].module.empty());
    CHECK(trace.records()[0].start_s == Approx(0.061205));
    CHECK(trace.records()[0].duration_us == 1866);
    CHECK(trace.records()[1].name == "foo.isra.0");
    CHECK(trace.records()[1].return_value == -19);
    CHECK(trace.records()[2].module == "virtio_blk");
    CHECK(trace.run_init_s() == Approx(0.5));
    CHECK(trace.malformed() == 0);
    CHECK(trace.unmatched() == 0);
}

TEST_CASE("an incomplete dump is named, never taken for a whole boot", "[initcalls]") {
    CHECK_FALSE(fed({}).state().has_value());
    const std::string call = "[    0.061205] calling  a_init+0x0/0x48 @ 1";
    const std::string back = "[    0.063101] initcall a_init+0x0/0x48 returned 0 after 5 usecs";
    SECTION("the guest stopped mid-dump") {
        CHECK(fed({"begin", "first [    0.000000] x", call, back}).state() ==
              InitcallTraceState::Cut);
    }
    SECTION("the ring buffer no longer held the boot's start") {
        CHECK(fed({"begin", "first [    0.041000] y", call, back, "end"}).state() ==
              InitcallTraceState::Wrapped);
        CHECK(fed({"begin", call, back, "end"}).state() == InitcallTraceState::Wrapped);
    }
    SECTION("a kernel whose initcall_debug printed nothing") {
        CHECK(fed({"begin", "first [    0.000000] x", "end"}).state() == InitcallTraceState::Empty);
    }
}

TEST_CASE("odd initcall lines are counted, not attributed", "[initcalls]") {
    const auto trace =
        fed({"begin", "first [    0.000000] x",
             // a name with a control character or a space is no symbol
             "[    0.1] calling  bad\x1b]0;T\x07name+0x0/0x4 @ 1",
             "[    0.1] calling  two words+0x0/0x4 @ 1",
             // a return with no call before it
             "[    0.2] initcall lonely+0x0/0x4 returned 0 after 3 usecs",
             // numbers that are not numbers
             "[    0.3] calling  n_init+0x0/0x4 @ 1",
             "[    0.3] initcall n_init+0x0/0x4 returned x after 3 usecs",
             "[    0.3] initcall n_init+0x0/0x4 returned 0 after -3 usecs",
             "[    0.3] initcall n_init+0x0/0x4 returned 0 after 3", "no timestamp at all",
             std::string(1 << 20, 'a'), "end", "[    0.4] calling  late+0x0/0x4 @ 1"});
    CHECK(trace.records().empty());
    CHECK(trace.unmatched() == 1);
    CHECK(trace.malformed() == 8);
    CHECK(trace.state() == InitcallTraceState::Empty);
}

TEST_CASE("the console monitor hands dump lines to the trace and nothing else", "[initcalls]") {
    bb::ConsoleMonitor monitor;
    monitor.feed("[    0.500000] Run /init as init process\r\nBOOTBENCH-MARKER boot-done 0.6\r\n",
                 1.0);
    monitor.feed("BOOTBENCH-KMSG begin\r\nBOOTBENCH-KMSG first [    0.000000] Booting\r\n"
                 "BOOTBENCH-KMSG [    0.1] calling  a_init+0x0/0x4 @ 1\r\n"
                 "BOOTBENCH-KMSG [    0.2] initcall a_init+0x0/0x4 returned 0 after 7 usecs\r\n"
                 "BOOTBENCH-KMSG [    0.500000] Run /init as init process\r\n"
                 "BOOTBENCH-KMSG [    0.3] Kernel panic - not syncing: in the dump only\r\n"
                 "BOOTBENCH-KMSG end\r\n",
                 1.1);
    CHECK(monitor.initcalls().state() == InitcallTraceState::Complete);
    REQUIRE(monitor.initcalls().records().size() == 1);
    CHECK(monitor.initcalls().records()[0].duration_us == 7);
    // The dumped "Run /init" and panic lines are the kernel's past, not events of this moment.
    int run_init = 0;
    for (const auto& event : monitor.events()) {
        CHECK(event.kind != bb::ConsoleEvent::Kind::Panic);
        run_init += event.kind == bb::ConsoleEvent::Kind::RunInit ? 1 : 0;
    }
    CHECK(run_init == 1);
    CHECK_FALSE(monitor.decided());
}

TEST_CASE("/init dumps the initcall lines after the marker, only when initcall_debug is on",
          "[initcalls]") {
    for (const std::string& script : {bb::default_init_script(), bb::init_script_running("/w")}) {
        const size_t marker = script.find("BOOTBENCH-MARKER boot-done");
        const size_t check = script.find("/sys/module/kernel/parameters/initcall_debug");
        const size_t dump = script.find("dmesg | sed");
        REQUIRE(marker != std::string::npos);
        REQUIRE(check != std::string::npos);
        CHECK(marker < check);
        CHECK(check < dump);
        CHECK(dump < script.find("BOOTBENCH-MARKER end"));
    }
}
