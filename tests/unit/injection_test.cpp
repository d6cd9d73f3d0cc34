// Hostile text (quotes, `;$()`, backticks, `<>&`, spaces and newlines) in every place a user can
// put it must arrive as data: commands are argv (never a shell), paths are opened as given,
// SQL binds, markup escapes (the store and HTML halves: boot_store_test, html_report_test).
// Run as `ctest -L reliability` (reliability.injection).
#include "experiment/experiment_parser.h"
#include "kernel/patch_series.h"
#include "test_support.h"
#include "util/markup_escape.h"
#include "util/run_command.h"
#include "util/streaming_command.h"
#include "vm/qemu_spec.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using bb::test::TempDir;
using bb::test::write_bytes;

namespace {
using bb::test::k_busybox;
using bb::test::read_text;
using bb::test::require_busybox;
// Would create `pwned` in the working directory if any shell ever saw it.
const std::string k_hostile_shell =
    "it's \"odd\"; touch pwned; $(touch pwned) `touch pwned` <x> & y\n"
    "z || touch pwned";

// Runs the test from inside `dir`, so a stray `touch pwned` would land there.
struct InDirectory {
    explicit InDirectory(const fs::path& dir) : m_previous(fs::current_path()) {
        fs::current_path(dir);
    }
    ~InDirectory() { fs::current_path(m_previous); }
    InDirectory(const InDirectory&) = delete;
    InDirectory& operator=(const InDirectory&) = delete;

  private:
    fs::path m_previous;
};
} // namespace

TEST_CASE("run_command passes hostile arguments as data", "[injection]") {
    TempDir dir;
    const InDirectory here(dir.path());
    const auto result = bb::run_command({"printf", "%s", k_hostile_shell});
    CHECK(result.exit_code == 0);
    CHECK(result.output == k_hostile_shell);
    CHECK_FALSE(fs::exists(dir / "pwned"));
}

TEST_CASE("run_streaming passes hostile arguments and directories as data", "[injection]") {
    TempDir dir;
    const fs::path odd = dir / k_hostile_shell;
    fs::create_directory(odd);
    const InDirectory here(dir.path());
    std::vector<std::string> lines;
    const auto result = bb::run_streaming({{"pwd"}, odd, {{"HOSTILE", k_hostile_shell}}},
                                          [&](std::string_view line) { lines.emplace_back(line); });
    CHECK(result.exit_code == 0);
    REQUIRE(lines.size() == 2); // the directory's name holds one newline
    CHECK(lines[0] + "\n" + lines[1] == odd.string());
    CHECK_FALSE(fs::exists(dir / "pwned"));
}

TEST_CASE("patches with hostile file names apply to a tree with a hostile path", "[injection]") {
    TempDir dir;
    const fs::path tree = dir / ("tree " + k_hostile_shell);
    fs::create_directories(tree);
    write_bytes(tree / "a.txt", "one\ntwo\nthree\n");
    const fs::path patch = dir / (k_hostile_shell + ".patch");
    write_bytes(patch, "--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three\n");
    const InDirectory here(dir.path());
    bb::apply_patch_series(tree, bb::load_patch_series({patch}));
    CHECK(read_text(tree / "a.txt") == "one\nTWO\nthree\n");
    CHECK_FALSE(fs::exists(dir / "pwned"));
    CHECK_FALSE(fs::exists(tree / "pwned"));
}

TEST_CASE("a hostile command line is one qemu argument", "[injection]") {
    bb::QemuSpec spec;
    spec.kernel = "/k " + k_hostile_shell;
    spec.cmdline = k_hostile_shell;
    const auto argv = bb::qemu_argv(spec);
    const auto append = std::find(argv.begin(), argv.end(), "-append");
    REQUIRE(append != argv.end());
    REQUIRE(append + 1 != argv.end());
    CHECK(append[1].find(k_hostile_shell) != std::string::npos);
    CHECK(std::find(argv.begin(), argv.end(), spec.kernel.string()) != argv.end());
}

TEST_CASE("hostile patch paths in an experiment are kept verbatim", "[injection]") {
    const std::string yaml = "name: t\nkernel:\n  arch: arm64\n  variants:\n    - name: v\n"
                             "      patches: [\"/p/it's \\\"odd\\\"; $(id) <x> & y\\nz.patch\"]\n";
    const bb::Experiment experiment = bb::parse_experiment(yaml, "/e/exp.yaml");
    REQUIRE(experiment.kernel.variants.at(0).patches.size() == 1);
    CHECK(experiment.kernel.variants[0].patches[0] == "/p/it's \"odd\"; $(id) <x> & y\nz.patch");
}

TEST_CASE("hostile text in a JUnit report is escaped", "[injection]") {
    const std::string escaped = bb::xml_escape(k_hostile_shell + "\x01");
    CHECK(escaped.find('<') == std::string::npos);
    CHECK(escaped.find('"') == std::string::npos);
    CHECK(escaped.find("&lt;x&gt; &amp; y") != std::string::npos);
    CHECK(escaped.find('\x01') == std::string::npos);
}

TEST_CASE("a stored note reaches the terminal without its control characters", "[injection]") {
    const std::string shown = bb::terminal_text("ok \x1b]0;pwned\x07 \x1b[2J µs\tend\n");
    CHECK(shown == "ok \xEF\xBF\xBD]0;pwned\xEF\xBF\xBD \xEF\xBF\xBD[2J µs\xEF\xBF\xBD"
                   "end\xEF\xBF\xBD");
    CHECK(bb::terminal_text("plain text, 100 %") == "plain text, 100 %");
}

// Issue 48 item 11: C1 controls (U+0085 NEL, U+009B CSI), bidi overrides (U+202E) and bytes that
// are not UTF-8 acted on the terminal too; terminal_output keeps a rendering's own line breaks.
TEST_CASE("the one terminal escaper: C1, bidi and broken UTF-8 too", "[injection]") {
    const std::string r = "\xEF\xBF\xBD";
    CHECK(bb::terminal_text("a\xC2\x85"
                            "b") == "a" + r + "b"); // U+0085
    CHECK(bb::terminal_text("a\xC2\x9B"
                            "31m") == "a" + r + "31m");                    // U+009B
    CHECK(bb::terminal_text("exe.\xE2\x80\xAEtxt") == "exe." + r + "txt"); // U+202E
    CHECK(bb::terminal_text("x\xE2\x81\xA6y") == "x" + r + "y");           // U+2066
    CHECK(bb::terminal_text("a\xFF\xC3") == "a" + r + r);
    CHECK(bb::terminal_text("a\rb") == "a" + r + "b");
    CHECK(bb::terminal_text("µs é ✓ 🙂") == "µs é ✓ 🙂");
    CHECK(bb::terminal_output("row 1\tx\nrow \x1b]0;T\x07 2\n") ==
          "row 1\tx\nrow " + r + "]0;T" + r + " 2\n");
    CHECK(bb::terminal_output("a\r\n") == "a" + r + "\n");
}
