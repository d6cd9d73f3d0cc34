#include "kernel/patch_change.h"
#include "test_support.h"
#include "util/paths.h"
#include "util/run_command.h"

#include <catch2/catch.hpp>
#include <string>

using bb::patch_tree_change;

namespace {

const std::string k_hand_written = "From: someone <someone@localhost>\n"
                                   "Subject: [PATCH 2/4] a.c: comment\n"
                                   "\n"
                                   "A comment only.\n"
                                   "---\n"
                                   "--- a/a.c\n"
                                   "+++ b/a.c\n"
                                   "@@ -1,3 +1,4 @@\n"
                                   " int f(void)\n"
                                   " {\n"
                                   "+\t/* why */\n"
                                   " \treturn 0;\n";

// The same change as `git format-patch` writes it: another message, a diffstat, `diff --git`,
// `index`, git's function context after the ranges and a signature.
const std::string k_format_patch =
    "From 0123456789abcdef0123456789abcdef01234567 Mon Sep 17 00:00:00 2001\n"
    "From: other <other@localhost>\n"
    "Date: Wed, 2 Dec 2026 00:00:00 +0000\n"
    "Subject: [PATCH] a.c: say why\n"
    "\n"
    "---\n"
    " a.c | 1 +\n"
    " 1 file changed, 1 insertion(+)\n"
    "\n"
    "diff --git a/a.c b/a.c\n"
    "index 1111111..2222222 100644\n"
    "--- a/a.c\n"
    "+++ b/a.c\n"
    "@@ -1,3 +1,4 @@ int g;\n"
    " int f(void)\n"
    " {\n"
    "+\t/* why */\n"
    " \treturn 0;\n"
    "-- \n"
    "2.39.5\n"
    "\n";

} // namespace

TEST_CASE("patch change: a message, diffstat, index lines, context and signature change nothing",
          "[patch_change]") {
    CHECK(patch_tree_change(k_format_patch) == patch_tree_change(k_hand_written));
    CHECK(patch_tree_change(k_hand_written) == "--- a/a.c\n"
                                               "+++ b/a.c\n"
                                               "@@ -1,3 +1,4 @@\n"
                                               " int f(void)\n"
                                               " {\n"
                                               "+\t/* why */\n"
                                               " \treturn 0;\n");
}

TEST_CASE("patch change: a changed line, range or file changes it", "[patch_change]") {
    std::string other_line = k_hand_written;
    other_line.replace(other_line.find("why"), 3, "how");
    CHECK(patch_tree_change(other_line) != patch_tree_change(k_hand_written));
    std::string other_range = k_hand_written;
    other_range.replace(other_range.find("-1,3 +1,4"), 9, "-7,3 +7,4");
    CHECK(patch_tree_change(other_range) != patch_tree_change(k_hand_written));
    std::string other_file = k_hand_written;
    other_file.replace(other_file.find("+++ b/a.c"), 9, "+++ b/b.c");
    CHECK(patch_tree_change(other_file) != patch_tree_change(k_hand_written));
}

TEST_CASE("patch change: git's mode and rename lines are kept, timestamps and CRs are not",
          "[patch_change]") {
    const std::string mode = "diff --git a/x.sh b/x.sh\nold mode 100644\nnew mode 100755\n";
    CHECK(patch_tree_change(mode) == "old mode 100644\nnew mode 100755\n");
    // Outside a git header, "rename from" is message text.
    CHECK(patch_tree_change("rename from a\n" + k_hand_written) ==
          patch_tree_change(k_hand_written));
    std::string dated = k_hand_written;
    dated.replace(dated.find("--- a/a.c"), 9, "--- a/a.c\t2026-12-02 00:00:00.000000000 +0000");
    CHECK(patch_tree_change(dated) == patch_tree_change(k_hand_written));
    std::string crlf;
    for (const char c : k_hand_written) {
        crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
    }
    CHECK(patch_tree_change(crlf) == patch_tree_change(k_hand_written));
}

TEST_CASE("patch change: a hunk holds exactly the lines its ranges count", "[patch_change]") {
    // A mailer dropped the context line's single space: still the same context line.
    std::string stripped = k_hand_written;
    stripped.replace(stripped.find(" {\n"), 3, "\n");
    std::string spaced = k_hand_written;
    spaced.replace(spaced.find(" {\n"), 3, " \n");
    CHECK(patch_tree_change(stripped) == patch_tree_change(spaced));
    // Lines after the counted ones are not the change (a signature, a trailer, a reply).
    CHECK(patch_tree_change(k_hand_written + "+not counted\n-- \nsig\n") ==
          patch_tree_change(k_hand_written));
    const std::string no_newline =
        "--- a/n\n+++ b/n\n@@ -1 +1 @@\n-x\n\\ No newline at end of file\n"
        "+y\n\\ No newline at end of file\n";
    CHECK(patch_tree_change(no_newline) == no_newline);
    // A malformed hunk header ends the file's diff; the text keys by what came before.
    CHECK(patch_tree_change("--- a/n\n+++ b/n\n@@ -x +1 @@\n-x\n") == "--- a/n\n+++ b/n\n");
}

TEST_CASE("patch change: a text without a diff keys by its bytes", "[patch_change]") {
    CHECK(patch_tree_change("Subject: cover letter\n\nno diff here\n") ==
          "Subject: cover letter\n\nno diff here\n");
    CHECK(patch_tree_change("").empty());
}

TEST_CASE("patch change: git format-patch of a hand-written patch's commit has its change",
          "[patch_change]") {
    bb::test::TempDir dir;
    const auto repo = dir.path().string();
    const auto git = [&](std::vector<std::string> args) {
        std::vector<std::string> argv = {
            "git", "-C", repo, "-c", "user.name=t", "-c", "user.email=t@localhost"};
        argv.insert(argv.end(), args.begin(), args.end());
        const auto result = bb::run_command(argv);
        INFO(result.output);
        REQUIRE(result.exit_code == 0);
        return result.output;
    };
    git({"init", "-q"});
    bb::write_file_atomically(dir / "a.c", "int f(void)\n{\n\treturn 0;\n");
    git({"add", "a.c"});
    git({"commit", "-q", "-m", "base"});
    bb::write_file_atomically(dir / "change.patch", k_hand_written);
    git({"apply", (dir / "change.patch").string()});
    git({"commit", "-q", "-a", "-m", "a.c: say why"});
    const std::string exported = git({"format-patch", "--stdout", "HEAD~1"});
    CHECK(exported != k_hand_written);
    CHECK(patch_tree_change(exported) == patch_tree_change(k_hand_written));
}
