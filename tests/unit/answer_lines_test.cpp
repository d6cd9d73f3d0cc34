// report/answer_lines: the verdict and compare end in sentences whose words are the decision and
// whose numbers are the table's (issue 49, item 1). Rows are built by hand: what is tested is
// the wording, not the statistics (verdict_test has those).
#include "report/answer_lines.h"

#include <catch2/catch.hpp>

namespace {

bb::VerdictTable table_with(const std::string& decision, double estimate, double low, double high,
                            double p, double p_holm) {
    bb::VerdictTable table;
    table.run_id = 1;
    table.experiment = "srcu";
    table.analysis.axis = "variant";
    table.analysis.pairs = {{"stock", "before"}};
    bb::VerdictRow row;
    row.condition = "all boots";
    row.pair = {"stock", "before"};
    row.n_a = 4;
    row.n_b = 4;
    row.ratio.estimate = estimate;
    row.ratio.interval = {low, high};
    row.ratio.p_value = p;
    row.p_adjusted = p_holm;
    row.decision = decision;
    table.rows.push_back(row);
    return table;
}

} // namespace

TEST_CASE("answer: a decided comparison reads as a factor, slower or faster, with its evidence") {
    const auto slower = bb::verdict_answers(table_with("B slower", 2.09, 1.48, 2.77, 0.029, 0.029));
    REQUIRE(slower.size() == 1);
    CHECK(slower[0] ==
          "before is 2.09× [1.48, 2.77] slower than stock (boot time, 4 vs 4 boots, exact p "
          "0.029, α 0.05)");
    // Faster: the factor is A / B, the interval's ends swapped, so it still reads above 1.
    const auto faster = bb::verdict_answers(table_with("B faster", 0.5, 0.4, 0.8, 0.01, 0.02));
    CHECK(faster[0] == "before is 2.00× [1.25, 2.50] faster than stock (boot time, 4 vs 4 "
                       "boots, exact p 0.01, Holm p 0.02, α 0.05)");
}

TEST_CASE("answer: an undecided comparison says what its interval still excludes") {
    auto table = table_with("no difference shown", 1.02, 0.93, 1.11, 0.64, 0.64);
    table.rows[0].condition = "hz=250";
    CHECK(bb::verdict_answers(table)[0] ==
          "no difference shown: before vs stock: 1.02× [0.93, 1.11]; the interval excludes "
          "changes beyond -7.0 % and +11.0 % (boot time, hz=250, 4 vs 4 boots, exact p 0.64, "
          "α 0.05)");
    auto unanswered = table_with("insufficient: n=2", 1.0, 0.5, 2.0, 0.5, 0.5);
    unanswered.rows[0].ratio.insufficient = "n=2";
    CHECK(bb::verdict_answers(unanswered)[0] ==
          "insufficient: n=2: before vs stock (boot time, 4 vs 4 boots, exact p 0.5, α 0.05)");
}

TEST_CASE("answer: the block is one line per answer, a list in Markdown") {
    const std::vector<std::string> answers{"a", "b"};
    CHECK(bb::answer_block(answers, false) == "answer: a\nanswer: b\n");
    CHECK(bb::answer_block(answers, true) == "- a\n- b\n");
}

TEST_CASE("answer: compare names decided groups and bounds the undecided ones together") {
    bb::ComparisonSet set;
    set.metric = "boot_seconds";
    set.seconds = true;
    set.axes = {"hz"};
    bb::SampleGroup a;
    bb::SampleGroup b;
    const auto group = [&](const std::string& hz, bb::Comparison::Verdict verdict, double ratio,
                           double low, double high) {
        bb::GroupComparison g;
        g.key = {bb::text_sql_value(hz)};
        g.a = &a;
        g.b = &b;
        g.comparison.verdict = verdict;
        g.comparison.n_a = 8;
        g.comparison.n_b = 8;
        g.comparison.ratio = ratio;
        g.comparison.ratio_ci = {low, high};
        g.comparison.p_value = 0.001;
        g.comparison.p_adjusted = 0.003;
        return g;
    };
    set.groups = {group("100", bb::Comparison::Verdict::Slower, 1.12, 1.05, 1.2),
                  group("250", bb::Comparison::Verdict::NoChange, 1.01, 0.95, 1.04),
                  group("1000", bb::Comparison::Verdict::NoChange, 0.99, 0.97, 1.08)};
    const auto answers = bb::comparison_answers(set);
    REQUIRE(answers.size() == 2);
    CHECK(answers[0] == "B is 1.12× [1.05, 1.20] slower than A (boot time, hz=100, 8 vs 8 boots, "
                        "p 0.001, Holm p 0.003, α 0.05)");
    CHECK(answers[1] == "no difference shown in 2 groups: every interval of B / A lies within "
                        "[0.95, 1.08], excluding changes beyond -5.0 % and +8.0 % (boot time, "
                        "α 0.05)");
}
