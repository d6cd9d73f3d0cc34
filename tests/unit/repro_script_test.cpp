// The replay script `bootbench repro` writes, run for real by bash. The "guest" here is a shell
// command standing in for qemu (this test's fake): it prints marker lines, so the script's input
// checks, its timing between markers and its exit statuses are tested without a kernel.
// tests/integration/repro.sh replays real boots and rebuilds a real kernel.
#include "repro/repro_script.h"
#include "test_support.h"
#include "util/hash.h"
#include "util/run_command.h"
#include "util/shell_quote.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

namespace fs = std::filesystem;
using bb::test::TempDir;
using bb::test::write_bytes;

namespace {

struct Replay {
    int status = -1;
    std::string output;
};

// A plan whose "qemu" is `sh -c GUEST` and whose inputs are two files in `dir`.
bb::ReproPlan fake_plan(const TempDir& dir, const std::string& guest) {
    bb::ReproPlan plan;
    plan.database = "test.sqlite";
    plan.marker = "boot-done";
    plan.boot.id = 7;
    plan.boot.record.run_id = 3;
    plan.boot.record.outcome = bb::BootOutcome::Ok;
    plan.boot.record.boot_seconds = 2.0;
    write_bytes(dir / "Image", "kernel bytes");
    write_bytes(dir / "initrd", "initramfs bytes");
    plan.inputs = {{"kernel", (dir / "Image").string(), bb::sha256_hex("kernel bytes")},
                   {"initramfs", (dir / "initrd").string(), bb::sha256_hex("initramfs bytes")}};
    // The input paths appear in the argv, as -kernel and -initrd do in qemu's.
    plan.boot.record.argv = {
        "sh", "-c", guest, "guest", (dir / "Image").string(), (dir / "initrd").string()};
    plan.no_recipe_reason = "the kernel was given as a file";
    return plan;
}

Replay replay(const TempDir& dir, const bb::ReproPlan& plan, const std::string& env = "",
              const std::string& args = "") {
    write_bytes(dir / "repro.sh", bb::render_repro_script(plan, "test"));
    const auto result = bb::run_command(
        {"bash", "-c",
         env + " bash " + (dir / "repro.sh").string() + " " + args + "; echo \"exit $?\""});
    return {std::stoi(result.output.substr(result.output.rfind("exit ") + 5)), result.output};
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}
} // namespace

TEST_CASE(
    "a replay times the guest from spawn to its marker and prints it beside the stored time") {
    TempDir dir;
    const auto plan =
        fake_plan(dir, "sleep 0.3; echo 'BOOTBENCH-MARKER boot-done 0.30'; echo tail");
    const auto result = replay(dir, plan);
    CHECK(result.status == 0);
    INFO(result.output);
    CHECK(contains(result.output, "marker boot-done after 0.3"));
    CHECK(contains(result.output, "stored 2.000 s"));
}

TEST_CASE("a replay with a start marker times from that marker's line") {
    TempDir dir;
    auto plan = fake_plan(dir, "echo 'BOOTBENCH-MARKER boot-done 0.0'; sleep 0.5; "
                               "echo 'BOOTBENCH-MARKER l2-start 1'; sleep 0.2; "
                               "echo 'BOOTBENCH-MARKER boot-done 0.2'");
    plan.start_marker = "l2-start";
    const auto result = replay(dir, plan);
    INFO(result.output);
    CHECK(result.status == 0);
    // The boot-done before the start does not count; the one after it comes 0.2 s later (the
    // one before would read 0.7 s). A range, not a digit: the clocks of two processes under a
    // sanitizer read 0.199 s once (no timing is asserted to the millisecond).
    const std::string prefix = "marker boot-done after ";
    const auto at = result.output.find(prefix);
    REQUIRE(at != std::string::npos);
    const double seconds = std::stod(result.output.substr(at + prefix.size()));
    CHECK(seconds > 0.1);
    CHECK(seconds < 0.5);
}

TEST_CASE("a replay refuses an input whose hash is not the recorded one, naming it") {
    TempDir dir;
    const auto plan = fake_plan(dir, "echo 'BOOTBENCH-MARKER boot-done 0.1'");
    write_bytes(dir / "other", "another initramfs");
    const auto result = replay(dir, plan, "REPRO_INITRD=" + (dir / "other").string());
    CHECK(result.status == 3);
    CHECK(contains(result.output, "input initramfs: " + (dir / "other").string() + " has sha256 " +
                                      bb::sha256_hex("another initramfs") + ", the boot used " +
                                      bb::sha256_hex("initramfs bytes")));
}

TEST_CASE("a replay whose guest never prints the marker exits 1 with the console's tail") {
    TempDir dir;
    const auto plan = fake_plan(dir, "echo 'Kernel panic - not syncing'");
    const auto result = replay(dir, plan);
    CHECK(result.status == 1);
    CHECK(contains(result.output, "the marker 'boot-done' never came"));
    CHECK(contains(result.output, "Kernel panic - not syncing"));
}

TEST_CASE("a replay stops a guest that outlives REPRO_TIMEOUT") {
    TempDir dir;
    const auto plan = fake_plan(dir, "echo 'BOOTBENCH-MARKER boot-done 0.1'; exec sleep 30");
    const auto result = replay(dir, plan, "REPRO_TIMEOUT=1");
    INFO(result.output);
    CHECK(result.status == 0); // the marker came; the hang after it is stopped, not waited for
    CHECK(contains(result.output, "no exit after 1 s (REPRO_TIMEOUT): stopping qemu"));
}

TEST_CASE("a replay without a kernel recipe says why it cannot rebuild") {
    TempDir dir;
    const auto plan = fake_plan(dir, "echo 'BOOTBENCH-MARKER boot-done 0.1'");
    const auto result = replay(dir, plan, "", "--rebuild-kernel");
    CHECK(result.status == 2);
    CHECK(contains(result.output,
                   "cannot be rebuilt from the script: the kernel was given as a file"));
}

TEST_CASE("shell_quote keeps every byte through printf") {
    const std::string bytes = "a'b\"c $(rm -rf /) `x` \\n\n\ttab\nno final newline";
    const auto result = bb::run_command({"bash", "-c", "printf '%s' " + bb::shell_quote(bytes)});
    CHECK(result.output == bytes);
    CHECK(bb::shell_quote("console=ttyAMA0") == "console=ttyAMA0");
    CHECK(bb::shell_quote("") == "''");
    CHECK(bb::shell_command_line({"qemu", "-append", "a b"}) == "qemu -append 'a b'");
}

// Issue 32, item 1: every value the script carries comes from a database someone else may have
// written. A newline in a stored name landed in the header comment and ran as shell code, even
// under --help. Here every stored field is hostile; neither --help, nor a replay, nor a rebuild
// that fails its checks may run any of it (a `touch pwned` would land in the test's directory).
TEST_CASE("no stored value reaches the repro script as shell code", "[injection]") {
    const std::string hostile = "x'\"; touch pwned; $(touch pwned) `touch pwned`\n"
                                "touch pwned #\r\\\n$(touch pwned)";
    TempDir dir;
    auto plan = fake_plan(dir, "echo 'BOOTBENCH-MARKER boot-done 0.1'");
    plan.database = (dir / hostile).string();
    plan.boot.experiment = hostile;
    plan.boot.record.cell_key = hostile;
    plan.boot.record.started_at = hostile;
    plan.start_marker = hostile;
    plan.marker = hostile;
    plan.inputs[0].sha256 = hostile;
    plan.boot.record.argv.push_back(hostile);
    bb::KernelRecipe recipe;
    recipe.build_key = hostile;
    recipe.arch = "arm64";
    recipe.make_arch = "arm64";
    recipe.cross_prefix = "aarch64-linux-gnu-";
    recipe.source_package = hostile;
    recipe.source_version = hostile;
    recipe.pristine_tree = hostile;
    recipe.toolchain = hostile;
    recipe.patches = {{hostile, "--- a/x\n+++ b/x\n", bb::sha256_hex("--- a/x\n+++ b/x\n")}};
    recipe.config = "CONFIG_X=y\n";
    recipe.config_sha256 = hostile;
    recipe.target = hostile;
    recipe.image_path = "arch/arm64/boot/Image";
    recipe.ccache_dir = hostile;
    recipe.make_env = {{"KBUILD_BUILD_USER", hostile}};
    plan.kernel = recipe;
    write_bytes(dir / "repro.sh", bb::render_repro_script(plan, hostile));
    for (const std::string args : {"--help", "", "--rebuild-kernel --check-only"}) {
        const auto result = bb::run_command(
            {"bash", "-c",
             "cd " + bb::shell_quote(dir.path().string()) + " && REPRO_TIMEOUT=5 REPRO_WORK=" +
                 bb::shell_quote((dir / "work").string()) + " bash repro.sh " + args});
        INFO("repro.sh " << args << ": " << result.output);
        CHECK_FALSE(fs::exists(dir / "pwned"));
    }
    const auto syntax = bb::run_command({"bash", "-n", (dir / "repro.sh").string()});
    INFO(syntax.output);
    CHECK(syntax.exit_code == 0);
}
