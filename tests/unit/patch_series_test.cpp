#include "kernel/patch_series.h"
#include "test_support.h"
#include "util/error.h"
#include "util/paths.h"
#include "util/run_command.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using bb::test::TempDir;
using bb::test::thrown_message;

namespace {

const std::string k_original = "one\ntwo\nthree\nfour\nfive\nsix\nseven\n";

// "two" -> "TWO"
const std::string k_diff_two = "--- a/a.txt\n"
                               "+++ b/a.txt\n"
                               "@@ -1,4 +1,4 @@\n"
                               " one\n"
                               "-two\n"
                               "+TWO\n"
                               " three\n"
                               " four\n";

// "TWO" -> "2": only applies once k_diff_two has.
const std::string k_diff_two_again = "--- a/a.txt\n"
                                     "+++ b/a.txt\n"
                                     "@@ -1,4 +1,4 @@\n"
                                     " one\n"
                                     "-TWO\n"
                                     "+2\n"
                                     " three\n"
                                     " four\n";

// "six" -> "6", in a separate place of the file.
const std::string k_diff_six = "--- a/a.txt\n"
                               "+++ b/a.txt\n"
                               "@@ -4,4 +4,4 @@\n"
                               " four\n"
                               " five\n"
                               "-six\n"
                               "+6\n"
                               " seven\n";

// A hunk whose context is not in the file.
const std::string k_diff_bad = "--- a/a.txt\n"
                               "+++ b/a.txt\n"
                               "@@ -1,3 +1,3 @@\n"
                               " uno\n"
                               "-dos\n"
                               "+DOS\n"
                               " tres\n";

const std::string k_diff_missing_file = "--- a/nothere.txt\n"
                                        "+++ b/nothere.txt\n"
                                        "@@ -1,2 +1,2 @@\n"
                                        " one\n"
                                        "-two\n"
                                        "+TWO\n";

// One git format-patch message; `sha` is one hex digit repeated 40 times.
std::string mail(char sha, const std::string& subject, const std::string& body,
                 const std::string& diff) {
    std::string text = "From " + std::string(40, sha) + " Mon Sep 17 00:00:00 2001\n";
    text += "From: A U Thor <author@example.com>\n";
    text += "Date: Mon, 1 Jan 2024 12:00:00 +0000\n";
    text += "Subject: " + subject + "\n";
    text += "\n";
    text += body;
    if (!diff.empty()) {
        text += "---\n a.txt | 2 +-\n 1 file changed, 1 insertion(+), 1 deletion(-)\n\n";
        text += "diff --git a/a.txt b/a.txt\nindex 1111111..2222222 100644\n";
        text += diff;
    }
    text += "-- \n2.39.2\n\n";
    return text;
}

// A pristine tree, and a working copy hard-linked from it with `cp -al` (as KernelBuilder does).
struct Trees {
    TempDir dir;
    fs::path pristine = dir / "pristine";
    fs::path tree = dir / "tree";

    Trees() {
        fs::create_directories(pristine / "sub");
        bb::test::write_bytes(pristine / "a.txt", k_original);
        bb::test::write_bytes(pristine / "sub" / "b.txt", "untouched\n");
        const auto copy = bb::run_command({"cp", "-al", pristine.string(), tree.string()});
        REQUIRE(copy.exit_code == 0);
        REQUIRE(fs::hard_link_count(pristine / "a.txt") == 2);
    }

    bb::Patch patch(const std::string& name, const std::string& bytes) {
        bb::test::write_bytes(dir / name, bytes);
        auto loaded = bb::load_patch_series({dir / name});
        REQUIRE(loaded.size() == 1);
        return loaded.front();
    }

    void check_pristine_untouched() const {
        CHECK(bb::read_file(pristine / "a.txt") == k_original);
        CHECK(bb::read_file(pristine / "sub" / "b.txt") == "untouched\n");
    }

    // Nothing left behind by patch (.orig, .rej) or by apply_patch_series (its scratch file).
    void check_no_leftovers() const {
        for (const auto& entry : fs::recursive_directory_iterator(dir.path())) {
            const std::string name = entry.path().filename().string();
            INFO(entry.path().string());
            CHECK(name.find(".orig") == std::string::npos);
            CHECK(name.find(".rej") == std::string::npos);
            CHECK(name.rfind(".patch.", 0) != 0);
        }
    }
};

} // namespace

// ---------------------------------------------------------------------------------------------
// split_mbox

TEST_CASE("split_mbox keeps a plain diff as one patch with index 0", "[patch_series]") {
    const auto patches = bb::split_mbox("/x/fix.patch", k_diff_two);
    REQUIRE(patches.size() == 1);
    CHECK(patches[0].index == 0);
    CHECK(patches[0].subject.empty());
    CHECK(patches[0].bytes == k_diff_two);
    CHECK(patches[0].file == fs::path("/x/fix.patch"));
    CHECK(patches[0].display_name() == "fix.patch");
}

TEST_CASE("split_mbox keeps a single format-patch message whole", "[patch_series]") {
    const std::string text = mail('a', "[PATCH] a.txt: shout two", "Louder.\n", k_diff_two);
    const auto patches = bb::split_mbox("/x/0001-shout.patch", text);
    REQUIRE(patches.size() == 1);
    CHECK(patches[0].index == 0);
    CHECK(patches[0].subject == "[PATCH] a.txt: shout two");
    CHECK(patches[0].bytes == text);
    CHECK(patches[0].display_name() == "0001-shout.patch (\"[PATCH] a.txt: shout two\")");
}

TEST_CASE("split_mbox splits a format-patch mbox into its messages", "[patch_series]") {
    const std::string first = mail('1', "[PATCH 1/3] first", "Body one.\n", k_diff_two);
    const std::string second = mail('2', "[PATCH 2/3] second", "Body two.\n", k_diff_two_again);
    const std::string third = mail('3', "[PATCH 3/3] third", "Body three.\n", k_diff_six);
    const auto patches = bb::split_mbox("/x/series.mbox", first + second + third);
    REQUIRE(patches.size() == 3);
    CHECK(patches[0].index == 1);
    CHECK(patches[1].index == 2);
    CHECK(patches[2].index == 3);
    CHECK(patches[0].subject == "[PATCH 1/3] first");
    CHECK(patches[1].subject == "[PATCH 2/3] second");
    CHECK(patches[2].subject == "[PATCH 3/3] third");
    CHECK(patches[0].bytes == first);
    CHECK(patches[1].bytes == second);
    CHECK(patches[2].bytes == third);
    CHECK(patches[1].display_name() == "series.mbox #2 (\"[PATCH 2/3] second\")");
}

TEST_CASE("split_mbox strips a CR from the subject", "[patch_series]") {
    const std::string text = "From " + std::string(40, 'c') +
                             " Mon Sep 17 00:00:00 2001\nSubject: [PATCH] crlf\r\n\n" + k_diff_two;
    const auto patches = bb::split_mbox("/x/crlf.patch", text);
    REQUIRE(patches.size() == 1);
    CHECK(patches[0].subject == "[PATCH] crlf");
}

// Issue 48 item 4: std::regex recursed per character and crashed (SIGSEGV) on a Subject line
// of >= 40 KB; the parser must take a 1 MB line.
TEST_CASE("split_mbox reads a 1 MB Subject line", "[patch_series]") {
    const std::string subject(1 << 20, 's');
    const std::string text = "From " + std::string(40, 'c') +
                             " Mon Sep 17 00:00:00 2001\nSubject: " + subject + "\n\n" + k_diff_two;
    const auto patches = bb::split_mbox("/x/long.patch", text);
    REQUIRE(patches.size() == 1);
    CHECK(patches[0].subject == subject);
}

TEST_CASE("split_mbox takes the Subject header only at a line start", "[patch_series]") {
    const std::string text =
        "From " + std::string(40, 'c') +
        " Mon Sep 17 00:00:00 2001\nX-Not-Subject: no\nSubject:\t[PATCH] yes\n\n" + k_diff_two;
    const auto patches = bb::split_mbox("/x/h.patch", text);
    REQUIRE(patches.size() == 1);
    CHECK(patches[0].subject == "[PATCH] yes");
}

TEST_CASE("split_mbox drops a cover letter without a diff", "[patch_series]") {
    const std::string cover = mail('0', "[PATCH 0/2] two changes",
                                   "This series shouts.\n\n"
                                   "A U Thor (2):\n  first\n  second\n\n"
                                   " a.txt | 4 ++--\n 1 file changed\n\n",
                                   "");
    const std::string first = mail('1', "[PATCH 1/2] first", "Body one.\n", k_diff_two);
    const std::string second = mail('2', "[PATCH 2/2] second", "Body two.\n", k_diff_six);
    const auto patches = bb::split_mbox("/x/series.mbox", cover + first + second);
    REQUIRE(patches.size() == 2);
    CHECK(patches[0].subject == "[PATCH 1/2] first");
    CHECK(patches[1].subject == "[PATCH 2/2] second");
    CHECK(patches[0].bytes == first);
    CHECK(patches[1].bytes == second);
    // The index is the position in the mbox (the cover letter was message 1).
    CHECK(patches[0].index == 2);
    CHECK(patches[1].index == 3);
}

TEST_CASE("split_mbox does not split at a From line that follows a non-blank line",
          "[patch_series]") {
    const std::string body = "Some text\nFrom the old days, a quoted line.\nFrom here too.\n";
    SECTION("inside a single message") {
        const std::string text = mail('1', "[PATCH] quoted", body, k_diff_two);
        const auto patches = bb::split_mbox("/x/q.patch", text);
        REQUIRE(patches.size() == 1);
        CHECK(patches[0].index == 0);
        CHECK(patches[0].bytes == text);
    }
    SECTION("inside a series") {
        const std::string first = mail('1', "[PATCH 1/2] quoted", body, k_diff_two);
        const std::string second = mail('2', "[PATCH 2/2] second", body, k_diff_six);
        const auto patches = bb::split_mbox("/x/q.mbox", first + second);
        REQUIRE(patches.size() == 2);
        CHECK(patches[0].bytes == first);
        CHECK(patches[1].bytes == second);
    }
}

TEST_CASE("split_mbox keeps a patch that only renames a file", "[patch_series]") {
    // A git rename (or mode change, or new empty file) has no ---/+++ lines, yet GNU patch
    // applies it. It must not be mistaken for a cover letter and silently dropped.
    const std::string rename_diff = "diff --git a/sub/b.txt b/sub/c.txt\n"
                                    "similarity index 100%\n"
                                    "rename from sub/b.txt\n"
                                    "rename to sub/c.txt\n";
    const std::string first = mail('1', "[PATCH 1/2] first", "Body.\n", k_diff_two);
    std::string second = "From " + std::string(40, '2') + " Mon Sep 17 00:00:00 2001\n" +
                         "Subject: [PATCH 2/2] rename b\n\nRename.\n---\n" + rename_diff +
                         "-- \n2.39.2\n\n";
    const auto patches = bb::split_mbox("/x/series.mbox", first + second);
    REQUIRE(patches.size() == 2);
    CHECK(patches[1].subject == "[PATCH 2/2] rename b");
}

// ---------------------------------------------------------------------------------------------
// load_patch_series

TEST_CASE("load_patch_series names a missing file", "[patch_series]") {
    TempDir dir;
    const fs::path missing = dir / "0001-missing.patch";
    const std::string message =
        thrown_message<bb::Error>([&] { bb::load_patch_series({missing}); });
    CHECK_THAT(message, Catch::Contains(missing.string()));
    CHECK_THAT(message, Catch::Contains("not found"));
}

TEST_CASE("load_patch_series rejects a file without a diff", "[patch_series]") {
    TempDir dir;
    bb::test::write_bytes(dir / "notes.patch", "Subject: just words\n\nNo diff here.\n");
    const std::string message =
        thrown_message<bb::Error>([&] { bb::load_patch_series({dir / "notes.patch"}); });
    CHECK_THAT(message, Catch::Contains("notes.patch"));
    CHECK_THAT(message, Catch::Contains("contains no diff"));

    // An empty file, too.
    bb::test::write_bytes(dir / "empty.patch", "");
    CHECK_THAT(thrown_message<bb::Error>([&] { bb::load_patch_series({dir / "empty.patch"}); }),
               Catch::Contains("empty.patch contains no diff"));
}

TEST_CASE("load_patch_series rejects an mbox in which no message has a diff", "[patch_series]") {
    // E.g. a thread of review replies saved instead of the series: every message looks like a
    // cover letter and is dropped, and the build would silently go ahead unpatched.
    TempDir dir;
    const std::string text = mail('1', "Re: [PATCH 1/2] first", "Looks good.\n", "") +
                             mail('2', "Re: [PATCH 2/2] second", "Nit.\n", "");
    bb::test::write_bytes(dir / "thread.mbox", text);
    const std::string message =
        thrown_message<bb::Error>([&] { bb::load_patch_series({dir / "thread.mbox"}); });
    CHECK_THAT(message, Catch::Contains("thread.mbox"));
    CHECK_THAT(message, Catch::Contains("contains no diff"));
}

TEST_CASE("load_patch_series keeps file order and mbox order", "[patch_series]") {
    TempDir dir;
    bb::test::write_bytes(dir / "0001-two.patch", k_diff_two);
    bb::test::write_bytes(dir / "rest.mbox", mail('2', "[PATCH 1/2] again", "", k_diff_two_again) +
                                                 mail('3', "[PATCH 2/2] six", "", k_diff_six));
    const auto series = bb::load_patch_series({dir / "0001-two.patch", dir / "rest.mbox"});
    REQUIRE(series.size() == 3);
    CHECK(series[0].bytes == k_diff_two);
    CHECK(series[0].index == 0);
    CHECK(series[1].subject == "[PATCH 1/2] again");
    CHECK(series[1].index == 1);
    CHECK(series[2].subject == "[PATCH 2/2] six");
    CHECK(series[2].index == 2);
    CHECK(series[1].file.is_absolute());
    CHECK(series[1].file.filename() == "rest.mbox");
    CHECK(bb::load_patch_series({}).empty());
}

// ---------------------------------------------------------------------------------------------
// apply_patch_series

TEST_CASE("apply_patch_series applies a series in order", "[patch_series]") {
    Trees trees;
    const std::vector<bb::Patch> series{trees.patch("0001-two.patch", k_diff_two),
                                        trees.patch("0002-two-again.patch", k_diff_two_again),
                                        trees.patch("0003-six.patch", k_diff_six)};
    bb::apply_patch_series(trees.tree, series);
    CHECK(bb::read_file(trees.tree / "a.txt") == "one\n2\nthree\nfour\nfive\n6\nseven\n");
    CHECK(bb::read_file(trees.tree / "sub" / "b.txt") == "untouched\n");
    trees.check_pristine_untouched();
    trees.check_no_leftovers();
}

TEST_CASE("apply_patch_series breaks hard links only where it changes a file", "[patch_series]") {
    Trees trees;
    bb::apply_patch_series(trees.tree, {trees.patch("0001-two.patch", k_diff_two)});
    CHECK(bb::read_file(trees.tree / "a.txt") == "one\nTWO\nthree\nfour\nfive\nsix\nseven\n");
    // The pristine copy must not see the change through a shared inode.
    trees.check_pristine_untouched();
    CHECK(fs::hard_link_count(trees.pristine / "a.txt") == 1);
    CHECK(fs::hard_link_count(trees.tree / "a.txt") == 1);
    // Files the series does not touch stay shared.
    CHECK(fs::hard_link_count(trees.pristine / "sub" / "b.txt") == 2);
}

TEST_CASE("apply_patch_series with an mbox series", "[patch_series]") {
    Trees trees;
    bb::test::write_bytes(trees.dir / "series.mbox",
                          mail('1', "[PATCH 1/2] shout", "", k_diff_two) +
                              mail('2', "[PATCH 2/2] digits", "", k_diff_two_again));
    bb::apply_patch_series(trees.tree, bb::load_patch_series({trees.dir / "series.mbox"}));
    CHECK(bb::read_file(trees.tree / "a.txt") == "one\n2\nthree\nfour\nfive\nsix\nseven\n");
    trees.check_pristine_untouched();
}

TEST_CASE("apply_patch_series with no patches changes nothing", "[patch_series]") {
    Trees trees;
    bb::apply_patch_series(trees.tree, {});
    CHECK(bb::read_file(trees.tree / "a.txt") == k_original);
    trees.check_no_leftovers();
}

TEST_CASE("apply_patch_series names the patch, file and hunk that fail", "[patch_series]") {
    Trees trees;
    const std::vector<bb::Patch> series{trees.patch("0001-two.patch", k_diff_two),
                                        trees.patch("0002-bad.patch", k_diff_bad)};
    const std::string message =
        thrown_message<bb::Error>([&] { bb::apply_patch_series(trees.tree, series); });
    CHECK_THAT(message, Catch::Contains("patch 2/2"));
    CHECK_THAT(message, Catch::Contains("0002-bad.patch"));
    CHECK_THAT(message, Catch::Contains("does not apply"));
    CHECK_THAT(message, Catch::Contains("a.txt: hunk #1 (at line 1)"));
    CHECK_THAT(message, !Catch::Contains("0001-two.patch"));
    trees.check_pristine_untouched();
    trees.check_no_leftovers();
}

TEST_CASE("apply_patch_series describes a failure whose output carries a 1 MB line",
          "[patch_series]") {
    // patch(1) echoes the text leading up to a diff: a 1 MB line reaches the failure parser.
    Trees trees;
    const std::vector<bb::Patch> series{
        trees.patch("0001-long.patch", std::string(1 << 20, 'x') + "\n" + k_diff_bad)};
    const std::string message =
        thrown_message<bb::Error>([&] { bb::apply_patch_series(trees.tree, series); });
    CHECK_THAT(message, Catch::Contains("a.txt: hunk #1 (at line 1)"));
}

TEST_CASE("apply_patch_series fails when the order is wrong", "[patch_series]") {
    Trees trees;
    const std::vector<bb::Patch> series{trees.patch("0002-two-again.patch", k_diff_two_again),
                                        trees.patch("0001-two.patch", k_diff_two)};
    const std::string message =
        thrown_message<bb::Error>([&] { bb::apply_patch_series(trees.tree, series); });
    CHECK_THAT(message, Catch::Contains("patch 1/2"));
    CHECK_THAT(message, Catch::Contains("0002-two-again.patch"));
    CHECK_THAT(message, Catch::Contains("a.txt"));
    CHECK_THAT(message, Catch::Contains("hunk #1"));
    trees.check_pristine_untouched();
}

TEST_CASE("apply_patch_series reports an already applied patch", "[patch_series]") {
    Trees trees;
    const bb::Patch two = trees.patch("0001-two.patch", k_diff_two);
    const std::string message = thrown_message<bb::Error>([&] {
        bb::apply_patch_series(trees.tree, {two, two});
    });
    CHECK_THAT(message, Catch::Contains("patch 2/2"));
    CHECK_THAT(message, Catch::Contains("a.txt: already applied"));
    CHECK(bb::read_file(trees.tree / "a.txt") == "one\nTWO\nthree\nfour\nfive\nsix\nseven\n");
    trees.check_pristine_untouched();
}

TEST_CASE("apply_patch_series reports a file missing from the tree", "[patch_series]") {
    Trees trees;
    const std::string message = thrown_message<bb::Error>([&] {
        bb::apply_patch_series(trees.tree,
                               {trees.patch("0001-nothere.patch", k_diff_missing_file)});
    });
    CHECK_THAT(message, Catch::Contains("0001-nothere.patch"));
    CHECK_THAT(message, Catch::Contains("does not exist in the tree"));
    trees.check_no_leftovers();
}
