// completion/completion: the words bash, zsh and fish offer on Tab (issue 49 item 8). The
// outline below is written by hand, and the database's values come from a stand-in that records
// which database it was asked about: the real ones (cli/cli_outline, completion/stored_values)
// are checked end to end in real shells by tests/integration/setup_files.sh.
#include "completion/completion.h"
#include "completion/value_kind.h"
#include "util/error.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <optional>
#include <string>
#include <vector>

namespace {

using bb::Candidate;
using bb::CommandOutline;
using bb::OptionOutline;

OptionOutline option(std::vector<std::string> names, std::string value = "") {
    return {std::move(names), "", std::move(value), "the help line\nand more"};
}

OptionOutline positional(std::string name, std::string value) {
    return {{}, std::move(name), std::move(value), "a positional"};
}

const CommandOutline& program() {
    static const CommandOutline outline{
        "", "", "", {option({"--db"}, "TEXT"), option({"-q", "--quiet"}), option({"--help"})}};
    return outline;
}

const std::vector<CommandOutline>& commands() {
    static const std::vector<CommandOutline> outlines{
        {"report",
         "Summarize stored samples",
         "",
         {option({"--format"}, "text|md|csv"), option({"--run"}, "RUN:INTEGER >= 1"),
          option({"--experiment"}, "EXPERIMENT"), option({"-o", "--output"}, "TEXT"),
          option({"--force"}), option({"--view"}, "phases")}},
        {"repro", "Replay one stored boot", "", {positional("BOOT_ID", "INT")}},
        {"compare",
         "Compare two runs",
         "",
         {positional("A", "RUN"), positional("B", "RUN"), option({"--format"}, "text|json")}},
        {"run", "Run an experiment file", "", {positional("file", "TEXT")}},
    };
    return outlines;
}

// The database's values as a test stand-in: fixed lists, and the --db each request named.
struct StoredStandIn {
    std::vector<std::optional<std::string>> asked;
    std::vector<Candidate> runs{{"1", "quick · 2026-12-01"}, {"12", "srcu"}, {"7", ""}};
    std::vector<Candidate> experiments{
        {"quick", ""}, {"srcu-storm", ""}, {"bad\x1b]0;T\x07", ""}, {"two words", ""}};

    bb::Completion complete(const std::vector<std::string>& words) {
        return bb::complete_words(
            program(), commands(), words,
            [this](const std::string& kind, const std::optional<std::string>& db) {
                asked.push_back(db);
                return kind == bb::k_run_value ? runs : experiments;
            });
    }
};

std::vector<std::string> words_of(const bb::Completion& completion) {
    std::vector<std::string> words;
    for (const auto& candidate : completion.candidates) {
        words.push_back(candidate.word);
    }
    return words;
}

using Words = std::vector<std::string>;

} // namespace

TEST_CASE("completion: commands, then a command's options and the global ones") {
    StoredStandIn stored;
    CHECK(words_of(stored.complete({""})) == Words{"report", "repro", "compare", "run"});
    CHECK(words_of(stored.complete({"rep"})) == Words{"report", "repro"});
    CHECK(stored.complete({"rep"}).candidates.front().description == "Summarize stored samples");
    CHECK(words_of(stored.complete({"report", "--f"})) == Words{"--format", "--force"});
    CHECK(words_of(stored.complete({"report", "-"})) == Words{"--format", "--run", "--experiment",
                                                              "-o", "--output", "--force", "--view",
                                                              "--db", "-q", "--quiet", "--help"});
    // An option's help is offered by its first line only.
    CHECK(stored.complete({"report", "--fo"}).candidates.front().description == "the help line");
    // Global options before the command, and their values, are skipped.
    CHECK(words_of(stored.complete({"--db", "x.sqlite", "-q", "rep"})) == Words{"report", "repro"});
    CHECK(stored.asked.empty());
}

TEST_CASE("completion: an option's listed values, in every spelling of option and value") {
    StoredStandIn stored;
    CHECK(words_of(stored.complete({"report", "--format", ""})) == Words{"text", "md", "csv"});
    CHECK(words_of(stored.complete({"report", "--format", "c"})) == Words{"csv"});
    CHECK(words_of(stored.complete({"report", "--format=m"})) == Words{"--format=md"});
    // bash splits at '=': "--format" "=" "m", or "--format" "=" and an empty word.
    CHECK(words_of(stored.complete({"report", "--format", "=", "m"})) == Words{"--format=md"});
    CHECK(words_of(stored.complete({"report", "--format", "=", ""})) ==
          Words{"--format=text", "--format=md", "--format=csv"});
    // A list of one value.
    CHECK(words_of(stored.complete({"report", "--view", ""})) == Words{"phases"});
    // The same option name means each command's own values.
    CHECK(words_of(stored.complete({"compare", "--format", ""})) == Words{"text", "json"});
    // A value already given is not completed again; the next word is an option or nothing.
    CHECK(words_of(stored.complete({"report", "--format", "md", "--fo"})) ==
          Words{"--format", "--force"});
    CHECK_FALSE(stored.complete({"report", "--format", "md", ""}).files);
}

TEST_CASE("completion: run ids and experiment names come from the database --db names") {
    StoredStandIn stored;
    CHECK(words_of(stored.complete({"report", "--run", "1"})) == Words{"1", "12"});
    CHECK(stored.complete({"report", "--run", ""}).candidates.front().description ==
          "quick · 2026-12-01");
    CHECK(words_of(stored.complete({"--db", "a.sqlite", "compare", ""})) == Words{"1", "12", "7"});
    CHECK(words_of(stored.complete({"--db=b.sqlite", "compare", "1", "7"})) == Words{"7"});
    // --db after the command (global options may follow it), and split by bash at '='.
    CHECK(words_of(stored.complete({"report", "--db", "=", "c.sqlite", "--run", ""})).size() == 3);
    REQUIRE(stored.asked.size() == 5);
    CHECK(stored.asked[0] == std::nullopt); // no --db: the default database
    CHECK(stored.asked[1] == std::nullopt);
    CHECK(stored.asked[2] == "a.sqlite");
    CHECK(stored.asked[3] == "b.sqlite");
    CHECK(stored.asked[4] == "c.sqlite");
}

TEST_CASE("completion: a stored name a shell cannot take as it is is never offered") {
    StoredStandIn stored;
    // An escape sequence (it would act on the terminal) and a space (two words in bash).
    CHECK(words_of(stored.complete({"report", "--experiment", ""})) ==
          Words{"quick", "srcu-storm"});
    CHECK(bb::plain_word("srcu-storm_2.yaml"));
    CHECK(bb::plain_word("--format=md"));
    CHECK_FALSE(bb::plain_word(""));
    CHECK_FALSE(bb::plain_word("a b"));
    CHECK_FALSE(bb::plain_word("a'b"));
    CHECK_FALSE(bb::plain_word("a*"));
    CHECK_FALSE(bb::plain_word(std::string("a\0b", 3)));
    CHECK_FALSE(bb::plain_word("caf\xc3\xa9"));
    CHECK_FALSE(bb::plain_word("a\xe2\x80\xae"));
}

TEST_CASE("completion: paths, numbers and free text are left to the shell's file completion") {
    StoredStandIn stored;
    CHECK(stored.complete({"run", ""}).files);
    CHECK(stored.complete({"report", "-o", ""}).files);
    CHECK(stored.complete({"report", "--output=x"}).files);
    CHECK(stored.complete({"--db", ""}).files);
    CHECK(stored.complete({"repro", "4"}).files);
    // Past the last positional, and after a command bootbench does not have: nothing at all.
    const bb::Completion past = stored.complete({"compare", "1", "2", ""});
    CHECK(past.candidates.empty());
    CHECK_FALSE(past.files);
    const bb::Completion unknown = stored.complete({"reprot", "--"});
    CHECK(unknown.candidates.empty());
    CHECK_FALSE(unknown.files);
    // After "--" a word that starts with '-' is a positional, not an option.
    CHECK(words_of(stored.complete({"compare", "--", "-"})).empty());
}

TEST_CASE("completion: the lines __complete prints, one candidate a line") {
    bb::Completion completion;
    completion.candidates = {{"report", "Summarize"}, {"12", "a\tb\nc\x1b[31m"}};
    const std::string lines = bb::completion_lines(completion);
    CHECK(lines.starts_with(":words\nreport\tSummarize\n12\ta"));
    // Every control character of a description is replaced: one field, one line.
    CHECK(lines.find('\x1b') == std::string::npos);
    CHECK(std::count(lines.begin(), lines.end(), '\n') == 3);
    CHECK(std::count(lines.begin(), lines.end(), '\t') == 2);
    completion.files = true;
    completion.candidates.clear();
    CHECK(bb::completion_lines(completion) == ":files\n");
}

TEST_CASE("completion: choice_of spells a type name of plain values") {
    CHECK(bb::choice_of({"text", "md"}) == "text|md");
    CHECK_THROWS_AS(bb::choice_of({"a|b"}), bb::Error);
    CHECK_THROWS_AS(bb::choice_of({""}), bb::Error);
    CHECK_THROWS_AS(bb::choice_of({"a:b"}), bb::Error);
    CHECK_THROWS_AS(bb::choice_of({"TEXT"}), bb::Error); // a kind, not a value
}
