#include "console/console_monitor.h"

#include <catch2/catch.hpp>
#include <string>
#include <string_view>

using bb::BootOutcome;
using bb::ConsoleEvent;
using bb::ConsoleMonitor;
using bb::MonitorLimits;
using Kind = ConsoleEvent::Kind;

namespace {
constexpr std::string_view k_marker_line = "BOOTBENCH-MARKER boot-done 0.37\n";

size_t count_kind(const ConsoleMonitor& monitor, Kind kind) {
    size_t n = 0;
    for (const auto& event : monitor.events()) {
        n += event.kind == kind ? 1 : 0;
    }
    return n;
}

const ConsoleEvent* find_kind(const ConsoleMonitor& monitor, Kind kind) {
    for (const auto& event : monitor.events()) {
        if (event.kind == kind) {
            return &event;
        }
    }
    return nullptr;
}
} // namespace

TEST_CASE("marker at the start of a line", "[console]") {
    ConsoleMonitor monitor;
    monitor.feed(k_marker_line, 1.5);
    REQUIRE(monitor.marker_host_s() == 1.5);
    REQUIRE(monitor.marker_guest_s().has_value());
    CHECK(*monitor.marker_guest_s() == Approx(0.37));
    // The timing marker alone decides nothing: the guest still has to reach its end.
    CHECK_FALSE(monitor.decided());
    CHECK_FALSE(monitor.stop_at().has_value());

    const ConsoleEvent* marker = find_kind(monitor, Kind::Marker);
    REQUIRE(marker != nullptr);
    CHECK(marker->text == "boot-done");
    CHECK(marker->host_s == 1.5);
    CHECK(monitor.first_event_s(Kind::FirstByte) == 1.5);
    CHECK(monitor.total_bytes() == k_marker_line.size());
}

TEST_CASE("marker in the middle of a line", "[console]") {
    ConsoleMonitor monitor;
    monitor.feed("[    1.000000] fooBOOTBENCH-MARKER boot-done 0.37\n", 2.25);
    REQUIRE(monitor.marker_host_s() == 2.25);
    REQUIRE(monitor.marker_guest_s().has_value());
    // The marker's own uptime wins over the printk stamp of the line it landed in.
    CHECK(*monitor.marker_guest_s() == Approx(0.37));
}

TEST_CASE("only the first timing marker counts", "[console]") {
    ConsoleMonitor monitor;
    monitor.feed(k_marker_line, 1.0);
    monitor.feed("BOOTBENCH-MARKER boot-done 9.99\n", 5.0);
    CHECK(monitor.marker_host_s() == 1.0);
    CHECK(*monitor.marker_guest_s() == Approx(0.37));
    CHECK(count_kind(monitor, Kind::Marker) == 2);
}

TEST_CASE("marker split across two reads at every position", "[console]") {
    for (size_t split = 0; split <= k_marker_line.size(); ++split) {
        INFO("split at " << split);
        ConsoleMonitor monitor;
        monitor.feed(k_marker_line.substr(0, split), 1.0);
        monitor.feed(k_marker_line.substr(split), 2.0);
        // The line is complete when its newline arrives; that read's time is the marker time.
        const double expected_host = split == k_marker_line.size() ? 1.0 : 2.0;
        REQUIRE(monitor.marker_host_s() == expected_host);
        REQUIRE(monitor.marker_guest_s().has_value());
        CHECK(*monitor.marker_guest_s() == Approx(0.37));
        CHECK(count_kind(monitor, Kind::Marker) == 1);
        CHECK(monitor.log() == k_marker_line);
    }
}

TEST_CASE("CRLF line endings", "[console]") {
    ConsoleMonitor monitor;
    monitor.feed("[    0.500000] Run /init as init process\r\nBOOTBENCH-MARKER boot-done 0.61\r\n",
                 3.0);
    REQUIRE(monitor.marker_guest_s().has_value());
    // A stray '\r' would make "0.61\r" unparsable and fall back to the printk time.
    CHECK(*monitor.marker_guest_s() == Approx(0.61));
    CHECK(monitor.log().find('\r') == std::string::npos);
    CHECK(monitor.first_event_s(Kind::RunInit) == 3.0);
}

TEST_CASE("ANSI escapes are stripped, even split across reads", "[console]") {
    const std::string stream =
        "\x1b[2J\x1b[01;01HBdsDxe: starting\r\n\x1b[0mBOOTBENCH-MARKER boot-done 0.37\r\n";
    for (size_t split = 0; split <= stream.size(); ++split) {
        INFO("split at " << split);
        ConsoleMonitor monitor;
        monitor.feed(std::string_view(stream).substr(0, split), 1.0);
        monitor.feed(std::string_view(stream).substr(split), 2.0);
        CHECK(monitor.log() == "BdsDxe: starting\nBOOTBENCH-MARKER boot-done 0.37\n");
        REQUIRE(monitor.marker_guest_s().has_value());
        CHECK(*monitor.marker_guest_s() == Approx(0.37));
        // Raw byte count, escapes included: it is what qemu wrote.
        CHECK(monitor.total_bytes() == stream.size());
    }
}

TEST_CASE("marker guest time comes from the trailing uptime token", "[console]") {
    SECTION("uptime given") {
        ConsoleMonitor monitor;
        monitor.feed("[    7.000000] x\nBOOTBENCH-MARKER boot-done 12.34\n", 1.0);
        CHECK(*monitor.marker_guest_s() == Approx(12.34));
    }
    SECTION("no uptime: the last printk time stands in") {
        ConsoleMonitor monitor;
        monitor.feed("[    2.500000] something\nBOOTBENCH-MARKER boot-done\n", 1.0);
        REQUIRE(monitor.marker_guest_s().has_value());
        CHECK(*monitor.marker_guest_s() == Approx(2.5));
    }
    SECTION("a non-numeric token is not a time") {
        ConsoleMonitor monitor;
        monitor.feed("[    2.500000] something\nBOOTBENCH-MARKER boot-done 1.2x\n", 1.0);
        REQUIRE(monitor.marker_guest_s().has_value());
        CHECK(*monitor.marker_guest_s() == Approx(2.5));
    }
    SECTION("neither: no guest time") {
        ConsoleMonitor monitor;
        monitor.feed("BOOTBENCH-MARKER boot-done\n", 1.0);
        CHECK(monitor.marker_host_s() == 1.0);
        CHECK_FALSE(monitor.marker_guest_s().has_value());
    }
    SECTION("a marker without a name is ignored") {
        ConsoleMonitor monitor;
        monitor.feed("BOOTBENCH-MARKER \n", 1.0);
        CHECK(count_kind(monitor, Kind::Marker) == 0);
        CHECK_FALSE(monitor.marker_host_s().has_value());
    }
}

TEST_CASE("printk timestamps stamp events with the guest clock", "[console]") {
    ConsoleMonitor monitor;
    monitor.feed("[    0.000000] Linux version 6.1.0 (gcc 12)\n", 0.5);
    monitor.feed("[    1.234567] Run /init as init process\n", 0.9);
    monitor.feed("[12345.678901] Unknown kernel command line parameters \"foo=1\"\n", 1.1);

    const ConsoleEvent* banner = find_kind(monitor, Kind::Banner);
    REQUIRE(banner != nullptr);
    CHECK(banner->host_s == 0.5);
    REQUIRE(banner->guest_s.has_value());
    CHECK(*banner->guest_s == Approx(0.0));
    CHECK(banner->text == "[    0.000000] Linux version 6.1.0 (gcc 12)");

    const ConsoleEvent* run_init = find_kind(monitor, Kind::RunInit);
    REQUIRE(run_init != nullptr);
    CHECK(run_init->host_s == 0.9);
    REQUIRE(run_init->guest_s.has_value());
    CHECK(*run_init->guest_s == Approx(1.234567));

    const ConsoleEvent* unknown = find_kind(monitor, Kind::UnknownParams);
    REQUIRE(unknown != nullptr);
    REQUIRE(unknown->guest_s.has_value());
    CHECK(*unknown->guest_s == Approx(12345.678901));

    CHECK(monitor.first_event_s(Kind::Banner) == 0.5);
    CHECK(monitor.first_event_s(Kind::RunInit) == 0.9);
    CHECK_FALSE(monitor.first_event_s(Kind::Panic).has_value());
}

TEST_CASE("lines that only look like printk stamps keep the previous guest time", "[console]") {
    ConsoleMonitor monitor;
    monitor.feed("[    3.000000] ok\n[ not a time ] Run /init as init process\n", 1.0);
    const ConsoleEvent* run_init = find_kind(monitor, Kind::RunInit);
    REQUIRE(run_init != nullptr);
    REQUIRE(run_init->guest_s.has_value());
    CHECK(*run_init->guest_s == Approx(3.0));
}

TEST_CASE("the banner is recorded once", "[console]") {
    ConsoleMonitor monitor;
    monitor.feed("Linux version 6.1\nLinux version 6.1 again (kexec)\n", 1.0);
    CHECK(count_kind(monitor, Kind::Banner) == 1);
    CHECK(count_kind(monitor, Kind::FirstByte) == 1);
}

TEST_CASE("a kernel panic decides Panic and keeps reading for the grace time", "[console]") {
    MonitorLimits limits;
    limits.panic_grace_s = 1.5;
    ConsoleMonitor monitor(limits);
    const std::string panic =
        "[    2.000000] Kernel panic - not syncing: VFS: Unable to mount root fs";
    monitor.feed(panic + "\n", 3.0);
    REQUIRE(monitor.decided());
    CHECK(monitor.outcome() == BootOutcome::Panic);
    CHECK(monitor.stop_at() == 4.5);
    CHECK(monitor.reason() == panic);
    CHECK(count_kind(monitor, Kind::Panic) == 1);

    // Later lines (the stack trace) still reach the log; the verdict does not change.
    monitor.feed("CPU: 0 PID: 1 Comm: swapper\nBOOTBENCH-MARKER end 3.1\n", 3.2);
    CHECK(monitor.outcome() == BootOutcome::Panic);
    CHECK(monitor.stop_at() == 4.5);
    CHECK(monitor.log().find("Comm: swapper") != std::string::npos);
}

TEST_CASE("oops and BUG lines are panics too", "[console]") {
    for (const char* line : {"[    1.0] Internal error: Oops: 96000004 [#1] SMP",
                             "[    1.0] BUG: kernel NULL pointer dereference, address: 0",
                             "[    1.0] Unable to handle kernel paging request at virtual address",
                             "[    1.0] kernel BUG at mm/slub.c:42!"}) {
        INFO(line);
        ConsoleMonitor monitor;
        monitor.feed(std::string(line) + "\n", 2.0);
        CHECK(monitor.outcome() == BootOutcome::Panic);
        CHECK(monitor.stop_at() == 3.0);
    }
}

TEST_CASE("warnings are recorded without deciding", "[console]") {
    ConsoleMonitor monitor;
    monitor.feed("[    1.0] WARNING: CPU: 0 PID: 1 at kernel/foo.c:1\n", 2.0);
    CHECK(count_kind(monitor, Kind::Warning) == 1);
    CHECK_FALSE(monitor.decided());
}

TEST_CASE("the end marker after the timing marker decides Ok", "[console]") {
    MonitorLimits limits;
    limits.end_grace_s = 3;
    ConsoleMonitor monitor(limits);
    monitor.feed(k_marker_line, 1.0);
    monitor.feed("BOOTBENCH-MARKER end 1.50\n", 2.0);
    REQUIRE(monitor.decided());
    CHECK(monitor.outcome() == BootOutcome::Ok);
    CHECK(monitor.stop_at() == 5.0);
    CHECK(monitor.reason() == "end marker seen");
    CHECK(monitor.marker_host_s() == 1.0);

    // A panic after the end does not undo the verdict.
    monitor.feed("Kernel panic - not syncing: Attempted to kill init!\n", 2.5);
    CHECK(monitor.outcome() == BootOutcome::Ok);
    CHECK(monitor.stop_at() == 5.0);
}

TEST_CASE("custom marker names", "[console]") {
    MonitorLimits limits;
    limits.timing_marker = "ready";
    limits.end_marker = "finished";
    ConsoleMonitor monitor(limits);
    monitor.feed(k_marker_line, 1.0); // boot-done is just another marker now
    CHECK_FALSE(monitor.marker_host_s().has_value());
    monitor.feed("BOOTBENCH-MARKER ready 0.8\nBOOTBENCH-MARKER finished 0.9\n", 2.0);
    CHECK(monitor.marker_host_s() == 2.0);
    CHECK(monitor.outcome() == BootOutcome::Ok);
}

TEST_CASE("the end marker before the timing marker is a Crash", "[console]") {
    ConsoleMonitor monitor;
    monitor.feed("BOOTBENCH-MARKER end 0.4\n", 2.0);
    REQUIRE(monitor.decided());
    CHECK(monitor.outcome() == BootOutcome::Crash);
    CHECK(monitor.stop_at() == 2.0);
    CHECK(monitor.reason() == "end marker 'end' before timing marker 'boot-done'");
}

TEST_CASE("silence is detected by tick()", "[console]") {
    MonitorLimits limits;
    limits.silence_timeout_s = 10;
    limits.total_timeout_s = 300;
    ConsoleMonitor monitor(limits);
    // Times are exact binary fractions so "elapsed >= limit" is not at the mercy of rounding.
    monitor.feed("firmware\n", 1.0);
    monitor.tick(10.5);
    CHECK_FALSE(monitor.decided());
    monitor.feed("more\n", 10.5); // every byte restarts the silence clock
    monitor.tick(20.25);
    CHECK_FALSE(monitor.decided());
    monitor.tick(20.5);
    REQUIRE(monitor.decided());
    CHECK(monitor.outcome() == BootOutcome::Silent);
    CHECK(monitor.stop_at() == 20.5);
    CHECK(monitor.reason() == "console silent for 10 s");
}

TEST_CASE("a console that never says anything is Silent", "[console]") {
    MonitorLimits limits;
    limits.silence_timeout_s = 10;
    ConsoleMonitor monitor(limits);
    monitor.tick(9.0);
    CHECK_FALSE(monitor.decided());
    monitor.tick(10.0);
    CHECK(monitor.outcome() == BootOutcome::Silent);
    CHECK(monitor.reason() == "console silent for 10 s (no byte at all)");
    CHECK(monitor.total_bytes() == 0);
    CHECK(monitor.events().empty());
}

TEST_CASE("the total time limit decides Timeout", "[console]") {
    MonitorLimits limits;
    limits.total_timeout_s = 10;
    limits.silence_timeout_s = 100;
    ConsoleMonitor monitor(limits);
    monitor.feed("a\n", 1.0);
    monitor.feed("b\n", 9.5);
    monitor.tick(9.99);
    CHECK_FALSE(monitor.decided());
    monitor.tick(10.0);
    REQUIRE(monitor.decided());
    CHECK(monitor.outcome() == BootOutcome::Timeout);
    CHECK(monitor.stop_at() == 10.0);
    CHECK(monitor.reason() == "no end within the 10 s time limit");
}

TEST_CASE("a timeout after the timing marker says so", "[console]") {
    MonitorLimits limits;
    limits.total_timeout_s = 10;
    limits.silence_timeout_s = 100;
    ConsoleMonitor monitor(limits);
    monitor.feed(k_marker_line, 1.0);
    monitor.feed("workload running\n", 10.5); // feed() checks the limits itself
    REQUIRE(monitor.decided());
    CHECK(monitor.outcome() == BootOutcome::Timeout);
    CHECK(monitor.reason() == "no end within the 10 s time limit (after marker 'boot-done')");
    CHECK(monitor.marker_host_s() == 1.0);
}

TEST_CASE("qemu exiting with status 0 after the marker is Ok", "[console]") {
    ConsoleMonitor monitor;
    monitor.feed(k_marker_line, 1.0);
    monitor.process_exited(0, std::nullopt, 4.0, "");
    REQUIRE(monitor.decided());
    CHECK(monitor.outcome() == BootOutcome::Ok);
    CHECK(monitor.reason() == "guest powered off");
    CHECK(monitor.stop_at() == 4.0);
}

TEST_CASE("process exit flushes an unterminated last line", "[console]") {
    ConsoleMonitor monitor;
    monitor.feed("BOOTBENCH-MARKER boot-done 0.5", 1.0); // no newline before qemu exits
    CHECK_FALSE(monitor.marker_host_s().has_value());
    monitor.process_exited(0, std::nullopt, 2.0, "");
    CHECK(monitor.marker_host_s() == 2.0);
    CHECK(monitor.outcome() == BootOutcome::Ok);
}

TEST_CASE("qemu failing before the marker is a Crash that quotes stderr", "[console]") {
    ConsoleMonitor monitor;
    monitor.feed("some firmware noise\n", 0.2);
    const std::string stderr_tail = "qemu-system-x86_64: -bios nope.fd: could not load firmware";
    monitor.process_exited(1, std::nullopt, 0.5, stderr_tail);
    REQUIRE(monitor.decided());
    CHECK(monitor.outcome() == BootOutcome::Crash);
    CHECK(monitor.reason() ==
          "qemu exited with status 1 before marker 'boot-done': " + stderr_tail);
    CHECK(monitor.stop_at() == 0.5);
}

TEST_CASE("qemu killed by a signal or failing after the marker is a Crash", "[console]") {
    SECTION("signal before the marker, no stderr") {
        ConsoleMonitor monitor;
        monitor.process_exited(std::nullopt, 9, 1.0, "");
        CHECK(monitor.outcome() == BootOutcome::Crash);
        CHECK(monitor.reason() == "qemu was killed by signal 9 before marker 'boot-done'");
    }
    SECTION("non-zero status after the marker") {
        ConsoleMonitor monitor;
        monitor.feed(k_marker_line, 1.0);
        monitor.process_exited(3, std::nullopt, 2.0, "boom");
        CHECK(monitor.outcome() == BootOutcome::Crash);
        CHECK(monitor.reason() == "qemu exited with status 3 after the marker: boom");
    }
    SECTION("status 0 before the marker") {
        ConsoleMonitor monitor;
        monitor.process_exited(0, std::nullopt, 1.0, "");
        CHECK(monitor.outcome() == BootOutcome::Crash);
    }
    SECTION("an earlier verdict stands") {
        ConsoleMonitor monitor;
        monitor.feed("Kernel panic - not syncing: x\n", 1.0);
        monitor.process_exited(0, std::nullopt, 2.0, "");
        CHECK(monitor.outcome() == BootOutcome::Panic);
        CHECK(monitor.stop_at() == 2.0);
    }
}

TEST_CASE("infrastructure failures decide InfraError", "[console]") {
    ConsoleMonitor monitor;
    CHECK_FALSE(monitor.decided());
    monitor.infrastructure_failed("interrupted by the user", 1.0);
    CHECK(monitor.outcome() == BootOutcome::InfraError);
    CHECK(monitor.reason() == "interrupted by the user");
    CHECK(monitor.stop_at() == 1.0);
}

TEST_CASE("BOOTBENCH-METRIC lines become metric samples", "[console]") {
    ConsoleMonitor monitor;
    monitor.feed("BOOTBENCH-METRIC mem_free 123456 kB\n", 1.0);
    monitor.feed("[    1.5] init: BOOTBENCH-METRIC  modules\t42\n", 2.0); // prefix, odd spacing
    monitor.feed("BOOTBENCH-METRIC bad notanumber s\nBOOTBENCH-METRIC\n", 3.0);
    REQUIRE(monitor.metrics().size() == 2);
    CHECK(monitor.metrics()[0].name == "mem_free");
    CHECK(monitor.metrics()[0].value == 123456.0);
    CHECK(monitor.metrics()[0].unit == "kB");
    CHECK(monitor.metrics()[0].host_s == 1.0);
    CHECK(monitor.metrics()[1].name == "modules");
    CHECK(monitor.metrics()[1].value == 42.0);
    CHECK(monitor.metrics()[1].unit == "");
    CHECK(monitor.metrics()[1].host_s == 2.0);
}

TEST_CASE("BOOTBENCH-HIST lines become histogram buckets", "[console]") {
    ConsoleMonitor monitor;
    monitor.feed("BOOTBENCH-HIST initcall_us 0 100 17\n"
                 "BOOTBENCH-HIST initcall_us 100 1000 3\n"
                 "BOOTBENCH-HIST broken 1 2\n",
                 1.0);
    REQUIRE(monitor.histograms().size() == 2);
    CHECK(monitor.histograms()[0].name == "initcall_us");
    CHECK(monitor.histograms()[0].lo == 0.0);
    CHECK(monitor.histograms()[0].hi == 100.0);
    CHECK(monitor.histograms()[0].count == 17);
    CHECK(monitor.histograms()[1].lo == 100.0);
    CHECK(monitor.histograms()[1].hi == 1000.0);
    CHECK(monitor.histograms()[1].count == 3);
    CHECK(monitor.metrics().empty());
}

TEST_CASE("power down after the marker is Ok", "[console]") {
    ConsoleMonitor monitor;
    monitor.feed(k_marker_line, 1.0);
    monitor.feed("[    2.000000] reboot: Power down\n", 2.5);
    REQUIRE(monitor.decided());
    CHECK(monitor.outcome() == BootOutcome::Ok);
    CHECK(monitor.reason() == "guest powered down");
    CHECK(monitor.stop_at() == 2.5);
    CHECK(count_kind(monitor, Kind::PowerDown) == 1);
}

TEST_CASE("power down after the end marker stops without waiting out the grace", "[console]") {
    ConsoleMonitor monitor; // end_grace_s = 3
    monitor.feed(k_marker_line, 1.0);
    monitor.feed("BOOTBENCH-MARKER end 1.1\n", 2.0);
    CHECK(monitor.stop_at() == 5.0);
    monitor.feed("reboot: Power down\n", 2.2);
    CHECK(monitor.outcome() == BootOutcome::Ok);
    CHECK(monitor.reason() == "end marker seen");
    CHECK(monitor.stop_at() == 2.2);
}

TEST_CASE("power down before the marker is a Crash", "[console]") {
    ConsoleMonitor monitor;
    monitor.feed("reboot: System halted\n", 1.0);
    CHECK(monitor.outcome() == BootOutcome::Crash);
    CHECK(monitor.reason() == "guest powered down before marker 'boot-done'");
}

TEST_CASE("memory stays bounded on a 100 MB console", "[console]") {
    MonitorLimits limits;
    limits.log_limit_bytes = 4096;
    limits.tail_bytes = 1024;
    limits.total_timeout_s = 1e9;
    limits.silence_timeout_s = 1e9;
    ConsoleMonitor monitor(limits);

    // Printable lines whose numbers make every position of the stream distinct.
    std::string chunk;
    size_t line_number = 0;
    auto make_chunk = [&] {
        chunk.clear();
        while (chunk.size() < 64 * 1024 - 64) {
            chunk += "line " + std::to_string(line_number++) + " of a very chatty guest\n";
        }
    };
    const size_t total = 100u * 1024 * 1024;
    std::string first; // the first 2 KiB, kept by the log's head
    std::string last;  // the last chunks, for the log's tail and tail()
    size_t fed = 0;
    double now = 0;
    while (fed < total) {
        make_chunk();
        if (chunk.size() > total - fed) {
            chunk.resize(total - fed);
        }
        if (first.size() < 2048) {
            first += chunk.substr(0, 2048 - first.size());
        }
        last = last.size() > 8192 ? last.substr(last.size() - 8192) + chunk : last + chunk;
        monitor.feed(chunk, now);
        now += 0.001;
        fed += chunk.size();
    }
    REQUIRE(monitor.total_bytes() == total);
    CHECK_FALSE(monitor.decided());

    const std::string log = monitor.log();
    CHECK(log.size() < 4096 + 100);
    const std::string notice = "\n[bootbench: " + std::to_string(total - 4096) +
                               " bytes of console output dropped here]\n";
    CHECK(log == first + notice + last.substr(last.size() - 2048));

    const std::string tail = monitor.tail();
    CHECK(tail == last.substr(last.size() - 1024));
}

TEST_CASE("log() and tail() of a short console are the whole console", "[console]") {
    MonitorLimits limits;
    limits.log_limit_bytes = 4096;
    limits.tail_bytes = 1024;
    ConsoleMonitor monitor(limits);
    std::string all;
    for (int i = 0; all.size() < 3000; ++i) {
        all += "short line " + std::to_string(i) + "\n";
    }
    all.resize(3000);
    // Fed in uneven reads so the head/tail boundary falls inside a read.
    monitor.feed(std::string_view(all).substr(0, 1000), 1.0);
    monitor.feed(std::string_view(all).substr(1000, 1500), 1.1);
    monitor.feed(std::string_view(all).substr(2500), 1.2);
    CHECK(monitor.log() == all); // nothing dropped, no notice
    CHECK(monitor.tail() == all.substr(all.size() - 1024));

    ConsoleMonitor tiny(limits);
    tiny.feed("hello\n", 1.0);
    CHECK(tiny.log() == "hello\n");
    CHECK(tiny.tail() == "hello\n");
}

// tail() should always be the console's last bytes. When tail_bytes is larger than what the log
// keeps after a drop (log_limit_bytes / 2), it splices the log's head onto its tail instead.
TEST_CASE("tail() is a suffix of the console even when tail_bytes exceeds half the log limit",
          "[console]") {
    MonitorLimits limits;
    limits.log_limit_bytes = 4096;
    limits.tail_bytes = 3000;
    ConsoleMonitor monitor(limits);
    std::string all;
    for (int i = 0; all.size() < 100'000; ++i) {
        all += "line " + std::to_string(i) + "\n";
    }
    monitor.feed(all, 1.0);
    const std::string tail = monitor.tail();
    REQUIRE_FALSE(tail.empty());
    CHECK(all.substr(all.size() - tail.size()) == tail);
}

TEST_CASE("a failed workload makes the boot a Crash even though the end marker follows",
          "[console]") {
    ConsoleMonitor monitor;
    monitor.feed(k_marker_line, 1.0);
    monitor.feed("insmod: can't insert 'rcuscale.ko'\nBOOTBENCH-MARKER workload-failed 1\n", 2.0);
    monitor.feed("BOOTBENCH-MARKER end 2.1\n", 2.1);
    REQUIRE(monitor.decided());
    CHECK(monitor.outcome() == BootOutcome::Crash);
    CHECK(monitor.reason() == "the workload failed (exit status 1)");
    CHECK(monitor.marker_host_s() == 1.0); // the boot time itself is still known
}

TEST_CASE("a start marker makes the boot time the span from it to the timing marker", "[console]") {
    MonitorLimits limits;
    limits.start_marker = "l2-start";
    limits.end_marker = "l1-end";
    ConsoleMonitor monitor(limits);
    // A timing marker before the start marker (L1's own, say) does not count.
    monitor.feed("BOOTBENCH-MARKER boot-done 1.0\n", 5.0);
    CHECK_FALSE(monitor.marker_host_s().has_value());
    monitor.feed("BOOTBENCH-MARKER l2-start 9.5\n", 10.0);
    CHECK(monitor.start_marker_host_s() == 10.0);
    monitor.feed("BOOTBENCH-MARKER boot-done 4.2\n", 25.5);
    REQUIRE(monitor.marker_host_s().has_value());
    CHECK(*monitor.marker_host_s() == Approx(15.5));
    CHECK(*monitor.marker_guest_s() == Approx(4.2)); // the L2 guest's own clock
    monitor.feed("BOOTBENCH-MARKER end 4.3\n", 26.0);
    CHECK_FALSE(monitor.decided()); // L2's end is not the run's end
    monitor.feed("BOOTBENCH-MARKER l1-end 40.0\n", 41.0);
    CHECK(monitor.outcome() == BootOutcome::Ok);
}

TEST_CASE("a nested guest's power-off does not stop the outer guest", "[console]") {
    MonitorLimits limits;
    limits.start_marker = "l2-start";
    limits.end_marker = "l1-end";
    limits.stop_on_power_down = false;
    ConsoleMonitor monitor(limits);
    monitor.feed("BOOTBENCH-MARKER l2-start 9.5\nBOOTBENCH-MARKER boot-done 4.2\n", 10.0);
    monitor.feed("[    4.5] reboot: Power down\n", 12.0);
    CHECK(count_kind(monitor, Kind::PowerDown) == 1);
    CHECK_FALSE(monitor.decided());
    CHECK_FALSE(monitor.stop_at().has_value());
    monitor.feed("BOOTBENCH-METRIC srcu_expedited_calls 1079 count\n", 13.0);
    monitor.feed("BOOTBENCH-MARKER l1-end 14.0\n", 14.0);
    CHECK(monitor.outcome() == BootOutcome::Ok);
    CHECK(monitor.metrics().size() == 1);
}

TEST_CASE("non-finite metrics and impossible histogram counts are ignored", "[console]") {
    // Found by fuzz_console_monitor: a count of 6e75 overflowed the conversion to an integer;
    // a NaN value could not be stored (metrics.value is NOT NULL) and lost the whole boot.
    ConsoleMonitor monitor;
    monitor.feed("BOOTBENCH-METRIC a nan s\nBOOTBENCH-METRIC b inf s\nBOOTBENCH-METRIC c 1e999 s\n"
                 "BOOTBENCH-HIST h 0 10 6e75\nBOOTBENCH-HIST h 0 10 -1\nBOOTBENCH-HIST h nan 1 2\n"
                 "BOOTBENCH-METRIC d 1.5 s\nBOOTBENCH-HIST h 0 10 5\n",
                 1.0);
    REQUIRE(monitor.metrics().size() == 1);
    CHECK(monitor.metrics()[0].name == "d");
    REQUIRE(monitor.histograms().size() == 1);
    CHECK(monitor.histograms()[0].count == 5);
}
