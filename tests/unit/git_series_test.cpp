// kernel/git_series.h against a real git repository made in a temporary directory: the range's
// commits become one patch each, oldest first, named after their commits; non-linear ranges,
// binary changes and malformed specs are refused with messages that say why.
#include "kernel/git_series.h"
#include "test_support.h"
#include "util/error.h"
#include "util/paths.h"
#include "util/run_command.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>

namespace {

using bb::test::TempDir;

struct Repo {
    TempDir dir;
    std::filesystem::path root = dir / "repo";

    Repo() {
        std::filesystem::create_directories(root);
        git({"init", "-q", "-b", "main"});
        commit("a.c", "int a;\n", "base");
    }
    std::string git(std::vector<std::string> args) const {
        args.insert(args.begin(), {"git", "-C", root.string(), "-c", "user.name=t", "-c",
                                   "user.email=t@example.invalid"});
        const auto result = bb::run_command(args);
        REQUIRE(result.exit_code == 0);
        return result.output;
    }
    std::string commit(const std::string& file, const std::string& text,
                       const std::string& subject) const {
        bb::test::write_bytes(root / file, text);
        git({"add", file});
        git({"commit", "-q", "-m", subject});
        std::string sha = git({"rev-parse", "HEAD"});
        return sha.substr(0, 40);
    }
    std::string range(const std::string& span) const { return root.string() + ":" + span; }
};

} // namespace

TEST_CASE("git series: a range's commits, oldest first, one patch each", "[git_series]") {
    Repo repo;
    repo.git({"tag", "base"});
    const std::string first = repo.commit("a.c", "int a;\nint b;\n", "add b");
    const std::string second = repo.commit("c.c", "int c;\n", "add c");
    TempDir cache;
    const auto series =
        bb::export_git_series(bb::parse_git_range(repo.range("base..main")), cache.path());
    CHECK(series.commits == std::vector<std::string>{first, second});
    REQUIRE(series.patches.size() == 2);
    CHECK(series.patches[0].filename() == fmt::format("0001-{}-add-b.patch", first.substr(0, 12)));
    CHECK(series.patches[1].filename() == fmt::format("0002-{}-add-c.patch", second.substr(0, 12)));
    CHECK(bb::read_file(series.patches[1]).find("+int c;") != std::string::npos);
    // The same range again is the same files (a resumed bisect), not a second export.
    const auto again =
        bb::export_git_series(bb::parse_git_range(repo.range("base..main")), cache.path());
    CHECK(again.patches == series.patches);
}

TEST_CASE("git series: refused ranges say why", "[git_series]") {
    Repo repo;
    repo.git({"tag", "base"});
    repo.commit("a.c", "int a;\nint b;\n", "add b");
    TempDir cache;
    const auto message = [&](const std::string& span) {
        return bb::test::thrown_message<bb::Error>(
            [&] { bb::export_git_series(bb::parse_git_range(repo.range(span)), cache.path()); });
    };
    CHECK_THAT(message("base..nowhere"), Catch::Contains("'nowhere' is not a commit"));
    CHECK_THAT(message("main..base"), Catch::Contains("is not an ancestor of"));
    CHECK_THAT(message("main..main"), Catch::Contains("the range has no commits"));

    repo.git({"checkout", "-q", "-b", "side", "base"});
    repo.commit("d.c", "int d;\n", "side");
    repo.git({"checkout", "-q", "main"});
    repo.git({"merge", "-q", "--no-edit", "side"});
    CHECK_THAT(message("base..main"), Catch::Contains("merge commit(s)"));

    repo.git({"checkout", "-q", "-b", "binary", "side"});
    repo.commit("blob.bin", std::string("\0\1\2", 3), "a binary file");
    CHECK_THAT(message("side..binary"), Catch::Contains("changes the binary file blob.bin"));
}

TEST_CASE("git series: REPO:A..B is the only form", "[git_series]") {
    const auto range = bb::parse_git_range("/src/lin:ux:v6.12..topic");
    CHECK(range.repo == "/src/lin:ux");
    CHECK(range.from == "v6.12");
    CHECK(range.to == "topic");
    for (const char* bad :
         {"v6.12..topic", "/src:v6.12", "/src:..topic", "/src:v6.12..", "/src:a...b", ":a..b"}) {
        CHECK_THAT(bb::test::thrown_message<bb::Error>([&] { bb::parse_git_range(bad); }),
                   Catch::Contains("expected REPO:A..B"));
    }
}
