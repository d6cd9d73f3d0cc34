// The HTML report: one escaping function, hand-drawn SVG charts, hostile names.
#include "report/html_report.h"
#include "report/svg_chart.h"
#include "util/markup_escape.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <regex>
#include <set>
#include <string>
#include <vector>

using bb::AxisValue;

namespace {

size_t count(const std::string& haystack, const std::string& needle) {
    size_t found = 0;
    for (size_t at = haystack.find(needle); at != std::string::npos;
         at = haystack.find(needle, at + 1)) {
        ++found;
    }
    return found;
}

AxisValue text(const std::string& value) {
    AxisValue axis;
    axis.kind = AxisValue::Kind::Text;
    axis.text = value;
    return axis;
}

const std::string k_hostile = "<script>alert(\"x\")</script> & 'q'\nnext";

} // namespace

TEST_CASE("html_escape escapes markup, quotes, ampersands and line breaks", "[html]") {
    CHECK(bb::html_escape("plain text 1.5 µs") == "plain text 1.5 µs");
    CHECK(bb::html_escape(k_hostile) ==
          "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;q&#39;&#10;next");
    CHECK(bb::html_escape("a\r\nb\tc") == "a&#13;&#10;b\tc");
    // Control characters HTML forbids become U+FFFD rather than vanishing silently.
    CHECK(bb::html_escape(std::string("x\x01y\x7f", 4)) == "x\xEF\xBF\xBDy\xEF\xBF\xBD");
    // Already-escaped text is escaped again: no entity passes through as markup.
    CHECK(bb::html_escape("&lt;") == "&amp;lt;");
    // A byte that is not UTF-8 (a stored name) made the page invalid UTF-8 (issue 48 item 15).
    CHECK(bb::html_escape("a\xFF\xC3<") == "a\xEF\xBF\xBD\xEF\xBF\xBD&lt;");
}

TEST_CASE("nice_ticks picks 1-2-5 steps covering the range", "[html][svg]") {
    CHECK(bb::nice_ticks(0, 1, 5) == std::vector<double>{0, 0.2, 0.4, 0.6000000000000001, 0.8, 1});
    CHECK(bb::nice_ticks(0, 100, 5) == std::vector<double>{0, 20, 40, 60, 80, 100});
    CHECK(bb::nice_ticks(11.2, 30.4, 4) == std::vector<double>{15, 20, 25, 30});
    CHECK(bb::nice_ticks(3, 3, 5) == std::vector<double>{3});
    CHECK(bb::nice_ticks(NAN, 3, 5).empty());
}

TEST_CASE("point chart: one circle and one CI bar per point with data", "[html][svg]") {
    bb::PointChart chart;
    chart.title = "boot vs phase";
    chart.categories = {"100", "1000", "10000"};
    chart.series = {{"stock",
                     {bb::ChartPoint{30, {29, 31}, 5, {}, {}}, std::nullopt,
                      bb::ChartPoint{11, {10.5, 11.5}, 5, {}, {}}}},
                    {"prefix",
                     {bb::ChartPoint{31, {}, 1, {}, {}}, bb::ChartPoint{12, {11, 13}, 5, {}, {}},
                      bb::ChartPoint{11, {10, 12}, 5, {}, {}}}}};
    const std::string svg = bb::svg_point_chart(chart);
    CHECK(count(svg, "<svg") == 1);
    CHECK(count(svg, "</svg>") == 1);
    CHECK(count(svg, "class=\"bb-point\"") == 5);
    CHECK(count(svg, "class=\"bb-ci\"") == 4); // the n=1 point has no interval
    CHECK(count(svg, "class=\"bb-series\"") == 2);
    CHECK(count(svg, "class=\"bb-legend\"") == 2);
}

TEST_CASE("bar chart: one bar per row, the geometric mean in its own class", "[html][svg]") {
    bb::BarChart chart;
    chart.rows = {{"geomean", -3.8, {-5, -2.5}, true},
                  {"camera", -1.8, {-3, 0.5}, false},
                  {"browser", 2.0, {}, false}};
    const std::string svg = bb::svg_bar_chart(chart);
    CHECK(count(svg, "class=\"bb-bar") == 3);
    CHECK(count(svg, "class=\"bb-bar bb-geomean\"") == 1);
    CHECK(count(svg, "class=\"bb-ci\"") == 2);
    CHECK(count(svg, "bb-zero") == 1);
}

TEST_CASE("histogram chart: panels side by side, bars only where counts are", "[html][svg]") {
    bb::HistogramChart chart;
    chart.first_edge = 0;
    chart.width = 10000;
    chart.panels = {{"default", {1, 4, 399, 0, 10}, {{"p50", 25000}, {"p90", 41000}}},
                    {"wake", {1, 234, 0, 0, 0}, {{"p50", 15000}}}};
    const std::string svg = bb::svg_histogram_chart(chart);
    CHECK(count(svg, "class=\"bb-panel\"") == 2);
    CHECK(count(svg, "class=\"bb-bar bb-hist-bar\"") == 4 + 2);
    CHECK(count(svg, "class=\"bb-percentile\"") == 3);
}

// The y attribute of every histogram bar: equal heights start at equal y in panels side by side.
static std::set<std::string> bar_tops(const std::string& svg) {
    static const std::regex bar(R"re(class="bb-bar bb-hist-bar" x="[^"]*" y="([^"]*)")re");
    std::set<std::string> tops;
    for (auto it = std::sregex_iterator(svg.begin(), svg.end(), bar); it != std::sregex_iterator();
         ++it) {
        tops.insert((*it)[1]);
    }
    return tops;
}

TEST_CASE("histogram chart: normalised bars compare groups of unequal counts", "[html][svg]") {
    bb::HistogramChart chart;
    chart.width = 10;
    // The same shape, ten times the counts: as shares the bars are equal, as counts they are not.
    chart.panels = {{"few", {10, 90}, {}, 100}, {"many", {100, 900}, {}, 1000}};
    const std::string shares = bb::svg_histogram_chart(chart);
    CHECK(bar_tops(shares).size() == 2);
    CHECK(count(shares, "% of the group&#39;s counts") == 2);
    CHECK(count(shares, "100 (10.00 % of 1000)") == 1); // the tooltip keeps the count
    chart.normalised = false;
    const std::string counts = bb::svg_histogram_chart(chart);
    CHECK(bar_tops(counts).size() == 4);
    CHECK(count(counts, ">count<") == 2);
}

TEST_CASE("ecdf chart: one step line per group, climbing once per finite boot", "[html][svg]") {
    bb::EcdfChart chart;
    chart.title = "boot_seconds";
    chart.series = {
        {"stock", {3.0, 1.0, 2.0}}, {k_hostile, {5.0, std::nan(""), 4.0}}, {"none", {}}};
    const std::string svg = bb::svg_ecdf_chart(chart);
    CHECK(count(svg, "class=\"bb-ecdf\"") == 2); // a group without a finite value draws nothing
    CHECK(count(svg, "data-n=\"3\"") == 1);
    CHECK(count(svg, "data-n=\"2\"") == 1);
    CHECK(count(svg, " V") == 3 + 2); // one rise per boot
    CHECK(count(svg, "class=\"bb-legend\"") == 2);
    CHECK(count(svg, "<script>") == 0);
    CHECK(count(svg, "stock: 3 boots, median 2") == 1);
}

TEST_CASE("hostile names never reach the page unescaped", "[html]") {
    bb::ParamTable table;
    table.param = k_hostile;
    table.metric = "boot_seconds";
    table.unit = "s";
    table.seconds = true;
    table.column_axis = "variant";
    table.rows = {text(k_hostile)};
    table.columns = {text("a\"b&c\nd")};
    bb::ParamCell cell;
    cell.median.n = 3;
    cell.median.median = 1.5;
    cell.median.ci = {1.25, 1.75};
    table.cells = {{cell}};
    bb::HtmlContext context;
    context.title = k_hostile;
    context.subtitle = k_hostile;
    const std::string html = bb::render_param_table_html(table, context);
    CHECK(count(html, "<script") == 0);
    CHECK(count(html, "alert(\"x\")") == 0);
    CHECK(count(html, "&lt;script&gt;alert(&quot;x&quot;)") >= 5);
    CHECK(count(html, "a&quot;b&amp;c&#10;d") >= 2); // legend and table header
    CHECK(html.rfind("<!DOCTYPE html>", 0) == 0);
    CHECK(count(html, "<svg") == 1);
    // Self-contained: nothing fetched.
    CHECK(count(html, "http://") == count(html, "http://www.w3.org/2000/svg"));
    CHECK(count(html, "https://") == 0);
    CHECK(count(html, "<link") == 0);
}

TEST_CASE("html_table right-aligns numeric columns and emphasizes leading rows", "[html]") {
    bb::Table table;
    table.headers = {"item", "n"};
    table.right_aligned = {false, true};
    table.rows = {{"* geomean", "2"}, {"<b>", "1"}};
    table.emphasized_rows = 1;
    CHECK(bb::html_table(table) ==
          "<table class=\"bb-table\">\n<thead><tr><th>item</th><th>n</th></tr></thead>\n"
          "<tbody>\n<tr class=\"bb-emphasized\"><td>* geomean</td><td class=\"num\">2</td></tr>\n"
          "<tr><td>&lt;b&gt;</td><td class=\"num\">1</td></tr>\n</tbody>\n</table>\n");
}

TEST_CASE("point chart: long category labels are cut and slanted, whole in the tooltip",
          "[html][svg]") {
    bb::PointChart chart;
    const std::string key =
        "variant=stock;hz=250;smp=1;firmware=QEMU_EFI.fd;machine=virt;rcu_nocbs=all";
    chart.categories = {key, "x"};
    chart.series = {
        {"", {bb::ChartPoint{1, {0.5, 1.5}, 3, {}, {}}, bb::ChartPoint{2, {1.5, 2.5}, 3, {}, {}}}}};
    const std::string svg = bb::svg_point_chart(chart);
    CHECK(count(svg, ">variant=stock;hz=250;smp=1;firmware=QEMU_EFI.fd;machine=vir…</text>") == 1);
    CHECK(count(svg, "rotate(-35") == 2);
    CHECK(count(svg, "<title>" + key + ": 1 [0.5, 1.5], n=3</title>") == 1);
}

TEST_CASE("point chart: every boot a dot, and groups without order are not joined", "[html][svg]") {
    bb::PointChart chart;
    chart.categories = {"stock", "before"};
    chart.series = {{"",
                     {bb::ChartPoint{1, {0.5, 1.5}, 3, {0.9, 1.0, 1.2}, {}},
                      bb::ChartPoint{2, {1.5, 2.5}, 2, {1.9, std::nan("")}, {}}}}};
    chart.connect = false;
    const std::string unjoined = bb::svg_point_chart(chart);
    CHECK(count(unjoined, "class=\"bb-sample\"") == 4); // a value that is not finite is no dot
    CHECK(count(unjoined, "<polyline") == 0);
    chart.connect = true;
    CHECK(count(bb::svg_point_chart(chart), "<polyline") == 1);
}

TEST_CASE("labels lose the parts every one of them has", "[html][text_table]") {
    std::vector<std::string> labels{"variant=a;hz=250;smp=2", "variant=b;hz=250;smp=2"};
    CHECK(bb::remove_shared_parts(labels) == std::vector<std::string>{"hz=250", "smp=2"});
    CHECK(labels == std::vector<std::string>{"variant=a", "variant=b"});
    std::vector<std::string> one{"variant=a;hz=250"};
    CHECK(bb::remove_shared_parts(one).empty());
    CHECK(one == std::vector<std::string>{"variant=a;hz=250"});
}
