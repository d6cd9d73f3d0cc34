// Every child bootbench starts gets util/child_setup.h: its own process group, killed as a group,
// and no descriptors inherited beyond stdin/stdout/stderr. Real processes (bash, sleep).
#include "test_support.h"
#include "util/error.h"
#include "util/paths.h"
#include "util/run_command.h"
#include "util/streaming_command.h"

#include <catch2/catch.hpp>
#include <fcntl.h>
#include <fstream>
#include <signal.h>
#include <string>
#include <unistd.h>

using bb::test::TempDir;

namespace {
// Running, not a zombie waiting for whatever reaps orphans here (PID 1 may be slow to).
bool alive(pid_t pid) {
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string text;
    std::getline(stat, text);
    const auto state = text.find(") ");
    return state != std::string::npos && text[state + 2] != 'Z';
}
} // namespace

TEST_CASE("a helper that outlives its timeout is stopped with its whole process group") {
    TempDir dir;
    const std::string pidfile = (dir / "grandchild").string();
    // The grandchild (sleep) is what the old spawner left running: it killed only bash.
    const std::string message = bb::test::thrown_message<bb::RuntimeFailure>([&] {
        bb::run_command({"bash", "-c", "sleep 100 & echo $! >" + pidfile + "; wait"},
                        std::chrono::seconds(1));
    });
    CHECK(message == "bash did not finish within 1 s");
    const pid_t grandchild = std::stoi(bb::read_file(pidfile));
    for (int i = 0; i < 100 && alive(grandchild); ++i) {
        usleep(10'000);
    }
    CHECK_FALSE(alive(grandchild));
}

TEST_CASE("children run in their own process group and inherit no extra descriptors") {
    // A descriptor bootbench holds open without O_CLOEXEC must not reach the child.
    const int opened = open("/dev/null", O_RDONLY);
    const int leaked = dup2(opened, 100); // far from the ones ls and bash open themselves
    close(opened);
    REQUIRE(leaked == 100);
    const std::string probe = "ls /proc/self/fd | sort -n | tr '\\n' ' '; "
                              "test \"$(ps -o pgid= $$)\" -eq $$ && echo own-group";
    const auto captured = bb::run_command({"bash", "-c", probe});
    std::string streamed;
    bb::StreamingCommand command;
    command.argv = {"bash", "-c", probe};
    bb::run_streaming(command,
                      [&](std::string_view line) { streamed += std::string(line) + "\n"; });
    close(leaked);
    for (const std::string& output : {captured.output, streamed}) {
        INFO(output);
        // bash's own descriptors (0-2 and the one ls reads /proc/self/fd with) only.
        CHECK(output.find(" " + std::to_string(leaked) + " ") == std::string::npos);
        CHECK(output.find("own-group") != std::string::npos);
    }
}

TEST_CASE("a helper's output is captured up to 16 MiB, and the cut is said") {
    const auto small = bb::run_command({"bash", "-c", "echo out; echo err >&2; exit 3"});
    CHECK(small.exit_code == 3);
    CHECK(small.output.find("out\n") != std::string::npos);
    CHECK(small.output.find("err\n") != std::string::npos);
    const auto flood = bb::run_command({"bash", "-c", "head -c 20000000 /dev/zero | tr '\\0' x"});
    CHECK(flood.exit_code == 0);
    CHECK(flood.output.size() < (17u << 20));
    CHECK(flood.output.find("[bootbench: output cut at 16 MiB]") != std::string::npos);
}
