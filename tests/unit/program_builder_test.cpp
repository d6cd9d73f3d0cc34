// Guest programs: compiled statically for the guest, cached by content (the preprocessed
// source, so an included header counts), and compile errors reach the user.
#include "guest/program_builder.h"
#include "test_support.h"
#include "util/error.h"
#include "util/run_command.h"

#include <catch2/catch.hpp>

namespace fs = std::filesystem;

TEST_CASE("a guest program is built once per content and runs statically", "[program_builder]") {
    const bb::test::TempDir dir;
    const fs::path source = dir / "hello_guest.c";
    bb::test::write_bytes(dir / "message.h",
                          "#define MESSAGE \"BOOTBENCH-METRIC hello 1 count\"\n");
    bb::test::write_bytes(source, "#include <stdio.h>\n#include \"message.h\"\n"
                                  "int main(void) { puts(MESSAGE); return 0; }\n");
    const bb::Arch arch = bb::host_arch();

    const bb::GuestProgram first = bb::build_guest_program(arch, source, dir / "cache");
    CHECK(first.name == "hello_guest");
    CHECK_FALSE(first.cache_hit);
    REQUIRE(fs::exists(first.binary));
    CHECK(first.binary.parent_path() == dir / "cache" / "programs");
    const bb::CommandResult ran = bb::run_command({first.binary.string()});
    CHECK(ran.exit_code == 0);
    CHECK(ran.output == "BOOTBENCH-METRIC hello 1 count\n");

    const bb::GuestProgram again = bb::build_guest_program(arch, source, dir / "cache");
    CHECK(again.cache_hit);
    CHECK(again.binary == first.binary);

    // Only the header changes: a new key, a new binary.
    bb::test::write_bytes(dir / "message.h", "#define MESSAGE \"changed\"\n");
    const bb::GuestProgram changed = bb::build_guest_program(arch, source, dir / "cache");
    CHECK_FALSE(changed.cache_hit);
    CHECK(changed.key != first.key);
    CHECK(bb::run_command({changed.binary.string()}).output == "changed\n");
}

TEST_CASE("a guest program that does not compile says why", "[program_builder]") {
    const bb::test::TempDir dir;
    const fs::path source = dir / "broken.c";
    bb::test::write_bytes(source, "int main(void) { return undeclared_name; }\n");
    const std::string message = bb::test::thrown_message<bb::Error>(
        [&] { bb::build_guest_program(bb::host_arch(), source, dir / "cache"); });
    CHECK(message.find("guest program " + source.string() + " does not compile for") == 0);
    CHECK(message.find("undeclared_name") != std::string::npos);
    CHECK_FALSE(fs::exists(dir / "cache" / "programs" / "broken"));
    CHECK(bb::test::thrown_message<bb::Error>([&] {
              bb::build_guest_program(bb::host_arch(), dir / "absent.c", dir / "cache");
          }) == "guest program not found: " + (dir / "absent.c").string());
}

TEST_CASE("the project's guest programs compile warning-free for both arches",
          "[program_builder]") {
    const fs::path programs = fs::path(BOOTBENCH_SOURCE_DIR) / "guest-images" / "programs";
    for (const char* name : {"sync_rcu_latency.c", "app_launch.c"}) {
        for (const bb::Arch arch : {bb::Arch::X86_64, bb::Arch::Arm64}) {
            const std::string compiler = bb::guest_compiler(arch);
            // scripts/setup.sh installs both compilers: a missing one fails, never skips.
            INFO(compiler << " not installed (scripts/setup.sh installs it)");
            REQUIRE_FALSE(bb::find_program(compiler).empty());
            const bb::CommandResult result =
                bb::run_command({compiler, "-fsyntax-only", "-Wall", "-Wextra", "-Werror",
                                 (programs / name).string()});
            INFO(compiler << " " << name << ":\n" << result.output);
            CHECK(result.exit_code == 0);
        }
    }
}
