#include "report/comparison_table.h"
#include "report/csv_format.h"
#include "report/json_format.h"
#include "report/junit_format.h"
#include "report/markdown_table.h"
#include "report/report_format.h"
#include "report/report_table.h"
#include "report/text_table.h"
#include "util/markup_escape.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

using bb::AxisValue;
using bb::Comparison;
using bb::Sample;

namespace {
AxisValue text_value(const std::string& text) {
    AxisValue value;
    value.kind = AxisValue::Kind::Text;
    value.text = text;
    return value;
}

AxisValue integer_value(long long integer) {
    AxisValue value;
    value.kind = AxisValue::Kind::Integer;
    value.integer = integer;
    return value;
}

size_t count(const std::string& haystack, const std::string& needle) {
    size_t found = 0;
    for (size_t at = haystack.find(needle); at != std::string::npos;
         at = haystack.find(needle, at + 1)) {
        ++found;
    }
    return found;
}

// One group whose axis value, cell key and params all need CSV quoting; one used sample and
// one failed boot without a value.
bb::SampleSet quoting_set() {
    bb::SampleSet set;
    set.metric = "boot_seconds";
    set.unit = "s";
    set.seconds = true;
    set.axes = {"variant"};
    bb::SampleGroup group;
    group.key = {text_value(R"(a,"b")")};
    Sample used;
    used.boot_id = 7;
    used.run_id = 2;
    used.cell_key = R"(variant=a,"b")";
    used.params_json = R"({"variant":"a,\"b\""})";
    used.outcome = "ok";
    used.foreign_load = 0.5;
    used.value = 1.25;
    Sample failed = used;
    failed.boot_id = 8;
    failed.outcome = "panic";
    failed.foreign_load.reset();
    failed.value.reset();
    failed.use = Sample::Use::Failed;
    group.samples = {used, failed};
    group.values = {1.25};
    group.failed = 1;
    set.groups.push_back(group);
    set.boots = 2;
    set.used = 1;
    return set;
}

// Times in milliseconds, a group without used samples.
struct ReportFixture {
    bb::SampleSet set;
    std::vector<bb::GroupStatistics> statistics;

    ReportFixture() {
        set.metric = "boot_seconds";
        set.unit = "s";
        set.seconds = true;
        set.axes = {"hz"};
        bb::SampleGroup fast;
        fast.key = {integer_value(250)};
        fast.values = {0.010, 0.012, 0.014};
        fast.failed = 1;
        fast.loaded = 2;
        fast.used_loaded = 1;
        bb::SampleGroup empty;
        empty.key = {integer_value(1000)};
        empty.no_value = 4;
        set.groups = {fast, empty};
        set.boots = 10;
        set.used = 3;
        bb::GroupStatistics first;
        first.group = &set.groups[0];
        first.summary = {3, 0.012, 0.002, 0.012, 0.010, 0.014};
        first.median = {3,
                        0.012,
                        {0.010, 0.014},
                        0.75,
                        "n=3: [min, max] covers only 75.0 %, below the 95 % asked for"};
        bb::GroupStatistics second;
        second.group = &set.groups[1];
        statistics = {first, second};
    }
};

struct ComparisonFixture {
    bb::SampleGroup dummy;
    bb::ComparisonSet set;

    ComparisonFixture() {
        set.metric = "boot_seconds";
        set.unit = "s";
        set.seconds = true;
        set.axes = {"v"};
        bb::GroupComparison slower;
        slower.key = {text_value(R"(<a&b>"c')")};
        slower.a = &dummy;
        slower.b = &dummy;
        slower.comparison.n_a = 5;
        slower.comparison.n_b = 5;
        slower.comparison.median_a = 1.0;
        slower.comparison.median_b = 1.2;
        slower.comparison.difference = 0.2;
        slower.comparison.difference_ci = {0.1, 0.3};
        slower.comparison.ratio = 1.2;
        slower.comparison.ratio_ci = {1.1, 1.3};
        slower.comparison.relative_change = 0.2;
        slower.comparison.coverage = 0.9683;
        slower.comparison.p_value = 0.0079;
        slower.comparison.p_adjusted = 0.0159;
        slower.comparison.verdict = Comparison::Verdict::Slower;
        bb::GroupComparison thin;
        thin.key = {text_value("thin")};
        thin.a = &dummy;
        thin.b = &dummy;
        thin.comparison.n_a = 2;
        thin.comparison.n_b = 1;
        thin.comparison.median_a = 1.0;
        thin.comparison.median_b = 1.0;
        thin.comparison.difference = 0.0;
        thin.comparison.ratio = 1.0;
        thin.comparison.relative_change = 0.0;
        thin.comparison.insufficient = "2 vs 1: no interval reaches 95 %";
        bb::GroupComparison same = slower;
        same.key = {text_value("same")};
        same.comparison.median_b = 1.0;
        same.comparison.difference = 0.0;
        same.comparison.difference_ci = {-0.1, 0.1};
        same.comparison.ratio = 1.0;
        same.comparison.relative_change = 0.0;
        same.comparison.p_value = 0.69;
        same.comparison.p_adjusted = 0.69;
        same.comparison.verdict = Comparison::Verdict::NoChange;
        set.groups = {slower, thin, same};
        set.slower = 1;
        set.no_change = 1;
        set.insufficient = 1;
        set.geomean_groups = 2;
        set.geomean_ratio = 1.0954451150103321;
    }
};
} // namespace

TEST_CASE("csv fields are quoted only when needed, quotes doubled", "[report_formats]") {
    CHECK(bb::csv_field("plain") == "plain");
    CHECK(bb::csv_field("") == "");
    CHECK(bb::csv_field("a,b") == "\"a,b\"");
    CHECK(bb::csv_field(R"(say "hi")") == R"("say ""hi""")");
    CHECK(bb::csv_field("two\nlines") == "\"two\nlines\"");
    CHECK(bb::csv_field("cr\r") == "\"cr\r\"");
}

TEST_CASE("csv carries every raw sample, escaped", "[report_formats]") {
    const std::string expected =
        "variant,boot_id,run_id,cell_key,outcome,foreign_load,use,metric,value,unit,params_json\n"
        R"("a,""b""",7,2,"variant=a,""b""",ok,0.5,used,boot_seconds,1.25,s,"{""variant"":""a,\""b\""""}")"
        "\n"
        R"("a,""b""",8,2,"variant=a,""b""",panic,,failed,boot_seconds,,s,"{""variant"":""a,\""b\""""}")"
        "\n";
    CHECK(bb::render_report_csv(quoting_set()) == expected);
}

TEST_CASE("csv values read back as the same doubles", "[report_formats]") {
    auto set = quoting_set();
    set.groups[0].samples[0].value = 0.1 + 0.2; // 0.30000000000000004
    const std::string csv = bb::render_report_csv(set);
    CHECK(csv.find(",0.30000000000000004,") != std::string::npos);
}

TEST_CASE("xml escaping of markup characters and forbidden controls", "[report_formats]") {
    CHECK(bb::xml_escape(R"(<a&b>"c')") == "&lt;a&amp;b&gt;&quot;c&apos;");
    CHECK(bb::xml_escape("tab\tnew\nline") == "tab\tnew\nline");
    CHECK(bb::xml_escape(std::string("bell\x07") + "esc\x1b") == "bell?esc?");
    CHECK(bb::xml_escape("µs ± σ") == "µs ± σ");
}

TEST_CASE("roff escaping: backslashes, hyphens, requests at a line's start", "[report_formats]") {
    CHECK(bb::roff_escape(R"(--db C:\x)") == R"(\-\-db C:\ex)");
    // A line starting with '.' or '\'' would be a request: it starts with \& instead.
    CHECK(bb::roff_escape(".SH x\n'br\nok.") == "\\&.SH x\n\\&'br\nok.");
    CHECK(bb::roff_escape(std::string("bell\x07tab\t")) == "bell?tab\t");
    CHECK(bb::roff_escape("µs ± σ") == R"(\[u00B5]s \[u00B1] \[u03C3])");
    CHECK(bb::roff_escape("B−A ≥ 𝜎") == R"(B\[u2212]A \[u2265] \[u1D70E])");
    CHECK(bb::roff_escape("\xff!") == R"(\[uFFFD]!)"); // not UTF-8
    // Well-formed in shape only: an overlong '/', a surrogate, a code point past U+10FFFF.
    CHECK(bb::roff_escape("\xC0\xAF") == R"(\[uFFFD]\[uFFFD])");
    CHECK(bb::roff_escape("\xED\xA0\x80") == R"(\[uFFFD]\[uFFFD]\[uFFFD])");
    CHECK(bb::roff_escape("\xF4\x90\x80\x80") == R"(\[uFFFD]\[uFFFD]\[uFFFD]\[uFFFD])");
}

TEST_CASE("junit: one testcase per group, failures for slower, all escaped", "[report_formats]") {
    ComparisonFixture f;
    const std::string xml = bb::render_junit(f.set, R"(boot_seconds: run 1 <x> & "y")");
    CHECK(xml.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", 0) == 0);
    CHECK(count(xml, "<testcase ") == 3);
    CHECK(count(xml, "<failure ") == 1);
    CHECK(count(xml, "<skipped ") == 1);
    CHECK(count(xml, R"(tests="3" failures="1" errors="0" skipped="1")") == 2);
    CHECK(xml.find(R"(name="v=&lt;a&amp;b&gt;&quot;c&apos;")") != std::string::npos);
    CHECK(xml.find(R"(<testsuite name="boot_seconds: run 1 &lt;x&gt; &amp; &quot;y&quot;")") !=
          std::string::npos);
    CHECK(xml.find("<a&b>") == std::string::npos);
    CHECK(xml.find("<x>") == std::string::npos);
    CHECK(xml.find("c'") == std::string::npos);
    // Well-formedness where escaping matters: every & starts an entity, every < a tag.
    for (size_t at = xml.find('&'); at != std::string::npos; at = xml.find('&', at + 1)) {
        const std::string rest = xml.substr(at, 6);
        INFO("at " << at << ": " << rest);
        CHECK((rest.rfind("&amp;", 0) == 0 || rest.rfind("&lt;", 0) == 0 ||
               rest.rfind("&gt;", 0) == 0 || rest.rfind("&quot;", 0) == 0 ||
               rest.rfind("&apos;", 0) == 0));
    }
    for (size_t at = xml.find('<'); at != std::string::npos; at = xml.find('<', at + 1)) {
        const char next = xml[at + 1];
        INFO("at " << at << ": " << xml.substr(at, 12));
        CHECK((next == '/' || next == '?' || (next >= 'a' && next <= 'z')));
    }
    const size_t failure = xml.find("<failure ");
    CHECK(xml.find("slower: median 1.000 s → 1.200 s", failure) != std::string::npos);
    CHECK(xml.find("insufficient data: 2 vs 1: no interval reaches 95 % (n 2 → 1)") !=
          std::string::npos);
    CHECK(xml.find("Mann-Whitney p 0.0079 (Holm 0.0159)", failure) != std::string::npos);
}

TEST_CASE("aligned text pads by characters, not bytes", "[report_formats]") {
    bb::Table table;
    table.headers = {"name", "value"};
    table.right_aligned = {false, true};
    table.rows = {{"µs-ish", "1"}, {"x", "1000 ± 3"}};
    CHECK(bb::render_aligned(table) == "name       value\n"
                                       "µs-ish         1\n"
                                       "x       1000 ± 3\n");
}

TEST_CASE("markdown tables escape pipes and mark numeric columns", "[report_formats]") {
    bb::Table table;
    table.headers = {"a", "b"};
    table.right_aligned = {false, true};
    table.rows = {{"x|y", "1"}};
    CHECK(bb::render_markdown(table) == "| a | b |\n| --- | ---: |\n| x\\|y | 1 |\n");
}

TEST_CASE("report table: one unit per table in the headers, CI, mean ± σ, range, excluded",
          "[report_formats]") {
    ReportFixture f;
    const bb::Table table = bb::report_table(f.set, f.statistics);
    CHECK(table.headers == std::vector<std::string>{"hz", "n", "median [95 % CI] (ms)", "CI covers",
                                                    "mean ± σ (ms)", "min … max (ms)",
                                                    "failed/loaded used", "excluded"});
    CHECK(table.label_columns == 1);
    REQUIRE(table.rows.size() == 2);
    // n=3: no interval reaches 95 % — said, with what [min, max] would cover. 12 ms: four
    // significant digits, two decimals in every number of the table.
    CHECK(table.rows[0] == std::vector<std::string>{"250", "3", "12.00 (n<6: no 95 % interval)",
                                                    "75.0 %", "12.00 ± 2.00", "10.00 … 14.00",
                                                    "0/1", "1 failed, 2 loaded"});
    CHECK(table.rows[1] ==
          std::vector<std::string>{"1000", "0", "-", "-", "-", "-", "0/0", "4 no value"});

    const std::string text = bb::render_report_text(f.set, f.statistics);
    CHECK(text.rfind("boot_seconds: 10 boots, 3 used, 2 groups by hz\n", 0) == 0);
    CHECK(text.find("\nloaded = the host was not quiet (foreign load above the quiet limit in "
                    "force)") != std::string::npos);
    CHECK(text.find("median [95 % CI]: distribution-free order-statistic interval") !=
          std::string::npos);
    const std::string markdown = bb::render_report_markdown(f.set, f.statistics);
    CHECK(markdown.find("| 250 | 3 | 12.00 (n<6: no 95 % interval) | 75.0 % |") !=
          std::string::npos);
}

TEST_CASE("report table for a metric that is not a time", "[report_formats]") {
    ReportFixture f;
    f.set.metric = "max_phase";
    f.set.unit = "count";
    f.set.seconds = false;
    f.statistics[0].summary = {3, 1000.5, 70.25, 1000, 900, 1100};
    f.statistics[0].median = {3, 1000, {900, 1100}, 0.969, ""}; // as if n were 6
    const bb::Table table = bb::report_table(f.set, f.statistics);
    CHECK(table.headers[2] == "median [95 % CI] (count)");
    CHECK(table.rows[0][2] == "1000 [900, 1100]");
    CHECK(table.rows[0][3] == "96.9 %");
    CHECK(table.rows[0][4] == "1000.5 ± 70.250");
    CHECK(bb::render_report_text(f.set, f.statistics).rfind("max_phase (count): ", 0) == 0);
}

TEST_CASE("report json: typed keys, statistics, every sample with parsed params",
          "[report_formats]") {
    ReportFixture f;
    f.set.groups[0].samples = quoting_set().groups[0].samples;
    f.set.groups[0].samples[1].params_json = "not json {";
    f.set.groups[0].samples[1].cell_key = "bad \xff byte\n";
    const std::string text = bb::render_report_json(f.set, f.statistics);
    // One line per sample; the whole is one valid JSON document.
    CHECK(count(text, "\n{\"boot_id\":") == 2);
    const auto json = nlohmann::json::parse(text);
    CHECK(json["metric"] == "boot_seconds");
    CHECK(json["by"] == nlohmann::json::array({"hz"}));
    REQUIRE(json["groups"].size() == 2);
    const auto& first = json["groups"][0];
    CHECK(first["key"]["hz"] == 250);
    CHECK(first["label"] == "hz=250");
    CHECK(first["n"] == 3);
    CHECK(first["median"] == 0.012);
    CHECK(first["median_ci"] == nlohmann::json::array({0.010, 0.014}));
    CHECK(first["median_ci_coverage"] == 0.75);
    CHECK(first["used_loaded"] == 1);
    CHECK(first["excluded"]["loaded"] == 2);
    REQUIRE(first["samples"].size() == 2);
    CHECK(first["samples"][0]["boot_id"] == 7);
    CHECK(first["samples"][0]["params"]["variant"] == R"(a,"b")");
    CHECK(first["samples"][0]["value"] == 1.25);
    CHECK(first["samples"][1]["value"].is_null());
    CHECK(first["samples"][1]["use"] == "failed");
    CHECK(first["samples"][0]["cell"] == R"(variant=a,"b")");
    CHECK(first["samples"][1]["params"] == "not json {");            // kept, as a string
    CHECK(first["samples"][1]["cell"] == "bad \xEF\xBF\xBD byte\n"); // U+FFFD
    CHECK(first["samples"][0]["foreign_load"] == 0.5);
    CHECK(first["samples"][1]["foreign_load"].is_null());
    const auto& empty = json["groups"][1];
    CHECK(empty["median"].is_null());
    CHECK(empty["mean"].is_null());
    CHECK(empty["median_ci"][0].is_null());
}

TEST_CASE("comparison table and summary line", "[report_formats]") {
    ComparisonFixture f;
    const bb::Table table = bb::comparison_table(f.set);
    REQUIRE(table.rows.size() == 3);
    CHECK(table.rows[0] == std::vector<std::string>{R"(<a&b>"c')", "5", "5", "0/0, 0/0", "1.000 s",
                                                    "1.200 s", "+200.0 ms [+100.0 ms, +300.0 ms]",
                                                    "1.200 [1.100, 1.300]", "96.8 %",
                                                    "0.0079 (0.0159)", "slower"});
    CHECK(table.rows[1] == std::vector<std::string>{"thin", "2", "1", "0/0, 0/0", "1.000 s",
                                                    "1.000 s", "+0.000 s", "1.000 (+0.0%)", "-",
                                                    "-", "insufficient data"});
    CHECK(table.rows[2][6] == "+0.0 ms [-100.0 ms, +100.0 ms]");
    CHECK(table.rows[2][9] == "0.69");
    CHECK(bb::comparison_summary_line(f.set) ==
          "3 groups: 1 slower, 0 faster, 1 no difference shown, 1 insufficient data; verdicts at α "
          "0.05 "
          "from Holm-adjusted Mann-Whitney p-values; geometric mean of B/A 1.0954 over 2 "
          "groups (descriptive)");
    f.set.threshold = 0.02;
    CHECK(bb::comparison_summary_line(f.set).find("changes within 2% not counted") !=
          std::string::npos);

    f.set.groups[1].b = nullptr;
    CHECK(bb::comparison_table(f.set).rows[1].back() == "only in A");

    const auto json = bb::comparison_json(f.set, "run 1", "run 2");
    CHECK(json["groups"][0]["verdict"] == "slower");
    CHECK(json["groups"][0]["difference_ci"] == nlohmann::json::array({0.1, 0.3}));
    CHECK(json["groups"][0]["p_holm"] == 0.0159);
    CHECK(json["groups"][1]["in_b"] == false);
    CHECK(json["counts"]["slower"] == 1);
    CHECK(json["geometric_mean_ratio"]["groups"] == 2);
}

TEST_CASE("verdict words and format names", "[report_formats]") {
    CHECK(bb::verdict_word(Comparison::Verdict::Slower, true) == "slower");
    CHECK(bb::verdict_word(Comparison::Verdict::Slower, false) == "higher");
    CHECK(bb::verdict_word(Comparison::Verdict::Faster, false) == "lower");
    CHECK(bb::verdict_word(Comparison::Verdict::NoChange, false) == "no difference shown");
    CHECK(bb::parse_report_format("text") == bb::ReportFormat::Text);
    CHECK(bb::parse_report_format("md") == bb::ReportFormat::Markdown);
    CHECK(bb::parse_report_format("csv") == bb::ReportFormat::Csv);
    CHECK(bb::parse_report_format("json") == bb::ReportFormat::Json);
    CHECK_FALSE(bb::parse_report_format("xml").has_value());
}
