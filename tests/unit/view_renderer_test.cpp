// Exact rendering of the seed-shaped views for small fixed inputs, in every format.
#include "report/view_renderer.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

using bb::AxisValue;
using bb::ReportFormat;

namespace {

AxisValue text(const std::string& value) {
    AxisValue axis;
    axis.kind = AxisValue::Kind::Text;
    axis.text = value;
    return axis;
}

AxisValue integer(long long value) {
    AxisValue axis;
    axis.kind = AxisValue::Kind::Integer;
    axis.integer = value;
    return axis;
}

// As median_estimate would say it: below 6 values no interval reaches 95 %.
bb::ParamCell cell(int n, double median, double low, double high, int excluded = 0) {
    bb::ParamCell c;
    c.median.n = n;
    c.median.median = median;
    c.median.ci = {low, high};
    c.median.coverage = n >= 6 ? 0.9922 : 1 - std::pow(0.5, n - 1);
    if (n < 6) {
        c.median.insufficient = "n<6";
    }
    c.excluded = excluded;
    return c;
}

// Seed 000's numbers for two phases, a missing cell and a single-sample cell.
bb::ParamTable param_fixture() {
    bb::ParamTable table;
    table.param = "phase";
    table.metric = "boot_seconds";
    table.unit = "s";
    table.seconds = true;
    table.column_axis = "variant";
    table.rows = {integer(100), integer(1000)};
    table.columns = {text("prefix"), text("stock")};
    table.cells = {{cell(3, 32.38, 32.2, 32.5), cell(8, 30.053, 29.9, 30.2, 1)},
                   {std::nullopt, cell(1, 11.443, 11.443, 11.443)}};
    table.cells[0][1]->used_loaded = 2; // --include-loaded let two loaded boots in
    // One row with boots in prefix: no trend; stock's two rows fall.
    bb::ColumnTrend none;
    none.rows = 1;
    none.test.insufficient = "a trend needs at least two groups with values";
    bb::ColumnTrend falls;
    falls.rows = 2;
    falls.test.method = "Jonckheere-Terpstra trend, exact";
    falls.test.n_a = 9;
    falls.test.estimate = 0;
    falls.test.p_value = 0.0222;
    falls.null_mean = 4;
    falls.order = bb::MedianOrder::NonIncreasing;
    table.trends = {none, falls};
    return table;
}

bb::HistogramView histogram_fixture() {
    bb::HistogramView view;
    view.name = "lat";
    view.axes = {"variant"};
    view.width = 10000;
    bb::HistogramGroup a;
    a.key = {text("default")};
    a.merged.width = 10000;
    a.merged.counts = {{0, 1}, {1, 4}, {3, 5}};
    a.used = 2;
    a.p50 = 30000;
    a.p90 = 38000;
    a.p99 = 39800;
    bb::HistogramGroup b;
    b.key = {text("wake")};
    b.merged.width = 10000;
    b.merged.counts = {{1, 2.5}};
    b.used = 1;
    b.used_loaded = 1;
    b.p50 = 15000;
    b.p90 = 18000;
    b.p99 = 19800;
    view.groups = {a, b};
    bb::MedianShift shift;
    shift.group = 1;
    shift.comparison.n_a = 2;
    shift.comparison.n_b = 1;
    shift.comparison.median_a = 30000;
    shift.comparison.median_b = 15000;
    shift.comparison.difference = -15000;
    shift.comparison.difference_ci = {-16000, -14000};
    shift.comparison.coverage = 0.6667;
    shift.comparison.p_value = 0.667;
    shift.comparison.p_adjusted = 0.667; // one shift per percentile: Holm changes nothing
    shift.comparison.insufficient = "2 vs 1: no interval reaches 95 %";
    shift.p99 = shift.comparison;
    shift.p99.median_a = 39000;
    shift.p99.median_b = 19000;
    shift.p99.difference = -20000;
    shift.p99.difference_ci = {-21000, -19000};
    view.shifts = {shift};
    return view;
}

bb::PerItemView per_item_fixture() {
    bb::PerItemView view;
    view.prefix = "launch";
    view.axis = "variant";
    view.base = text("base");
    view.unit = "ms";
    bb::PerItemComparison comparison;
    comparison.other = text("opt_rspin");
    comparison.geomean.items = 2;
    comparison.geomean.n_base = 5;
    comparison.geomean.n_other = 5;
    comparison.geomean.value = 0.9621;
    comparison.geomean.ci = {0.95, 0.975};
    comparison.geomean.coverage = 0.9683;
    comparison.geomean.p_value = 0.0079;
    comparison.base_geomean = 343;
    comparison.other_geomean = 330;
    bb::ItemRow hello;
    hello.item = "helloworld";
    hello.comparison.n_a = 5;
    hello.comparison.n_b = 5;
    hello.comparison.median_a = 110;
    hello.comparison.median_b = 108;
    hello.comparison.difference = -2;
    hello.comparison.ratio = 108.0 / 110;
    hello.comparison.ratio_ci = {0.97, 0.99};
    hello.used_failed = 1;
    bb::ItemRow kindle;
    kindle.item = "Kindle";
    kindle.comparison.n_a = 5;
    kindle.comparison.n_b = 0;
    kindle.comparison.median_a = 629;
    comparison.items = {hello, kindle};
    view.comparisons = {comparison};
    return view;
}

} // namespace

TEST_CASE("param table renders as text", "[views][render]") {
    CHECK(
        bb::render_param_table(param_fixture(), ReportFormat::Text) ==
        R"golden(boot_seconds by phase and variant: median [95 % order-statistic interval, coverage] (n used)
phase             variant=prefix (s)                                                          variant=stock (s)
  100  32.38 (n=3: no 95 % interval)  30.05 [29.90, 30.20] 99.2 % (n=8, 0 failed and 2 loaded used, 1 excluded)
 1000                              -                                              11.44 (n=1: no 95 % interval)
trend down phase, variant=prefix: none (a trend needs at least two groups with values)
trend down phase, variant=stock: J = 0 (falls: null mean 4) over 2 values (9 boots), p = 0.0222 (Jonckheere-Terpstra trend, exact); medians non-increasing
)golden");
}

TEST_CASE("param table renders as Markdown", "[views][render]") {
    CHECK(
        bb::render_param_table(param_fixture(), ReportFormat::Markdown) ==
        R"golden(boot_seconds by phase and variant: median [95 % order-statistic interval, coverage] (n used)

| phase | variant=prefix (s) | variant=stock (s) |
| ---: | ---: | ---: |
| 100 | 32.38 (n=3: no 95 % interval) | 30.05 [29.90, 30.20] 99.2 % (n=8, 0 failed and 2 loaded used, 1 excluded) |
| 1000 | - | 11.44 (n=1: no 95 % interval) |

trend down phase, variant=prefix: none (a trend needs at least two groups with values)
trend down phase, variant=stock: J = 0 (falls: null mean 4) over 2 values (9 boots), p = 0.0222 (Jonckheere-Terpstra trend, exact); medians non-increasing
)golden");
}

TEST_CASE("param table renders as CSV, raw units, missing cells left out", "[views][render]") {
    CHECK(bb::render_param_table(param_fixture(), ReportFormat::Csv) ==
          R"golden(phase,variant,n,median,ci95_low,ci95_high,excluded,metric,unit
100,prefix,3,32.38,,,0,boot_seconds,s
100,stock,8,30.053,29.9,30.2,1,boot_seconds,s
1000,stock,1,11.443,,,0,boot_seconds,s
)golden");
}

TEST_CASE("param table renders as JSON", "[views][render]") {
    const std::string out = bb::render_param_table(param_fixture(), ReportFormat::Json);
    CHECK(out.back() == '\n');
    CHECK(
        nlohmann::json::parse(out) ==
        nlohmann::json::parse(
            R"golden({"column_axis":"variant","metric":"boot_seconds","param":"phase","rows":[{"cells":[{"column":"prefix","excluded":0,"median":32.38,"median_ci":[32.2,32.5],"median_ci_coverage":0.75,"n":3,"used_failed":0,"used_loaded":0},{"column":"stock","excluded":1,"median":30.053,"median_ci":[29.9,30.2],"median_ci_coverage":0.9922,"n":8,"used_failed":0,"used_loaded":2}],"value":100},{"cells":[{"column":"prefix","excluded":0,"median":null,"median_ci":[null,null],"median_ci_coverage":null,"n":0,"used_failed":0,"used_loaded":0},{"column":"stock","excluded":0,"median":11.443,"median_ci":[11.443,11.443],"median_ci_coverage":0.0,"n":1,"used_failed":0,"used_loaded":0}],"value":1000}],"trends":[{"boots":0,"column":"prefix","insufficient":"a trend needs at least two groups with values","j":null,"j_null_mean":0.0,"medians":"not monotone","method":"","p_value":null,"values":1},{"boots":9,"column":"stock","insufficient":"","j":0.0,"j_null_mean":4.0,"medians":"non-increasing","method":"Jonckheere-Terpstra trend, exact","p_value":0.0222,"values":2}],"unit":"s","view":"param-table"})golden"));
}

TEST_CASE("histogram view renders side by side as text and Markdown", "[views][render]") {
    CHECK(
        bb::render_histogram_view(histogram_fixture(), ReportFormat::Text) ==
        R"golden(histogram lat: buckets of 10000 µs summed over the used boots of each group (by variant); p50/p90/p99 interpolated in the bucket
bucket              variant=default  variant=wake
0 - 9999                          1             0
10000 - 19999                     4           2.5
20000 - 29999                     0             0
30000 - 39999                     5             0
p50                           30000         15000
p90                           38000         18000
p99                           39800         19800
samples                          10           2.5
boots                             2             1
failed/loaded used              0/0           0/1
p50 shift, variant=wake − variant=default: -15000 µs [-16000, -14000] (Hodges-Lehmann shift of per-boot p50s, interval covers 66.7 %, Mann-Whitney p 0.667, Holm p 0.667, n 2 → 1; 2 vs 1: no interval reaches 95 %)
p99 shift, variant=wake − variant=default: -20000 µs [-21000, -19000] (Hodges-Lehmann shift of per-boot p99s, interval covers 66.7 %, Mann-Whitney p 0.667, Holm p 0.667, n 2 → 1; 2 vs 1: no interval reaches 95 %)
shifts tested: exact Mann-Whitney on per-boot percentiles, Holm over the 1 shifts of each percentile, decided at α 0.05 (a run's declared α when it declared one)
)golden");
    CHECK(
        bb::render_histogram_view(histogram_fixture(), ReportFormat::Markdown) ==
        R"golden(histogram lat: buckets of 10000 µs summed over the used boots of each group (by variant); p50/p90/p99 interpolated in the bucket

| bucket | variant=default | variant=wake |
| --- | ---: | ---: |
| 0 - 9999 | 1 | 0 |
| 10000 - 19999 | 4 | 2.5 |
| 20000 - 29999 | 0 | 0 |
| 30000 - 39999 | 5 | 0 |
| p50 | 30000 | 15000 |
| p90 | 38000 | 18000 |
| p99 | 39800 | 19800 |
| samples | 10 | 2.5 |
| boots | 2 | 1 |
| failed/loaded used | 0/0 | 0/1 |

p50 shift, variant=wake − variant=default: -15000 µs [-16000, -14000] (Hodges-Lehmann shift of per-boot p50s, interval covers 66.7 %, Mann-Whitney p 0.667, Holm p 0.667, n 2 → 1; 2 vs 1: no interval reaches 95 %)
p99 shift, variant=wake − variant=default: -20000 µs [-21000, -19000] (Hodges-Lehmann shift of per-boot p99s, interval covers 66.7 %, Mann-Whitney p 0.667, Holm p 0.667, n 2 → 1; 2 vs 1: no interval reaches 95 %)
shifts tested: exact Mann-Whitney on per-boot percentiles, Holm over the 1 shifts of each percentile, decided at α 0.05 (a run's declared α when it declared one)
)golden");
}

TEST_CASE("histogram view renders as CSV and JSON", "[views][render]") {
    CHECK(bb::render_histogram_view(histogram_fixture(), ReportFormat::Csv) ==
          R"golden(variant,lo,hi,count
default,0,10000,1
default,10000,20000,4
default,20000,30000,0
default,30000,40000,5
wake,0,10000,0
wake,10000,20000,2.5
wake,20000,30000,0
wake,30000,40000,0
)golden");
    CHECK(nlohmann::
              json::parse(bb::render_histogram_view(histogram_fixture(), ReportFormat::Json)) == nlohmann::json::parse(R"golden({"bucket_width":10000.0,"buckets_are":"[lower_edge, lower_edge + bucket_width), [lower_edge, count] pairs","by":["variant"],"groups":[{"boot_p50s":[],"boot_p99s":[],"boots_excluded":0,"boots_used":2,"boots_used_failed":0,"boots_used_loaded":0,"boots_with_guest_percentiles":0,"boots_without_histogram":0,"buckets":[[0.0,1.0],[10000.0,4.0],[30000.0,5.0]],"key":{"variant":"default"},"label":"variant=default","p50":30000.0,"p90":38000.0,"p99":39800.0,"samples":10.0},{"boot_p50s":[],"boot_p99s":[],"boots_excluded":0,"boots_used":1,"boots_used_failed":0,"boots_used_loaded":1,"boots_with_guest_percentiles":0,"boots_without_histogram":0,"buckets":[[10000.0,2.5]],"key":{"variant":"wake"},"label":"variant=wake","p50":15000.0,"p90":18000.0,"p99":19800.0,"samples":2.5}],"median_shifts":[{"a":"variant=default","b":"variant=wake","p50":{"ci_coverage":0.6667,"difference":-15000.0,"difference_ci":[-16000.0,-14000.0],"insufficient":"2 vs 1: no interval reaches 95 %","median_a":30000.0,"median_b":15000.0,"n_a":2,"n_b":1,"p":0.667,"p_holm":0.667,"verdict":"insufficient data"},"p99":{"ci_coverage":0.6667,"difference":-20000.0,"difference_ci":[-21000.0,-19000.0],"insufficient":"2 vs 1: no interval reaches 95 %","median_a":39000.0,"median_b":19000.0,"n_a":2,"n_b":1,"p":0.667,"p_holm":0.667,"verdict":"insufficient data"}}],"name":"lat","split_buckets":0,"view":"histogram"})golden"));
}

TEST_CASE("per-item view renders as text with the geomean row first", "[views][render]") {
    CHECK(
        bb::render_per_item_view(per_item_fixture(), ReportFormat::Text) ==
        R"golden(launch.* by variant: base (base) vs opt_rspin; medians, diff = Hodges-Lehmann shift opt_rspin − base, diff % = opt_rspin / base − 1 on the log scale with its exact Mann-Whitney interval (negative: lower); * geomean = each boot's geomean over the items, compared across boots
item        base (ms)  opt_rspin (ms)  diff           diff % [CI]                                n
* geomean         343             330   -13  -3.8% [-5.0%, -2.5%]              5/5 boots × 2 items
helloworld        110             108    -2  -1.8% [-3.0%, -1.0%]  5/5, 1 failed and 0 loaded used
Kindle            629               -     -                     -                              5/0
)golden");
}

TEST_CASE("per-item view renders as Markdown, CSV and JSON", "[views][render]") {
    CHECK(
        bb::render_per_item_view(per_item_fixture(), ReportFormat::Markdown) ==
        R"golden(launch.* by variant: base (base) vs opt_rspin; medians, diff = Hodges-Lehmann shift opt_rspin − base, diff % = opt_rspin / base − 1 on the log scale with its exact Mann-Whitney interval (negative: lower); * geomean = each boot's geomean over the items, compared across boots

| item | base (ms) | opt_rspin (ms) | diff | diff % [CI] | n |
| --- | ---: | ---: | ---: | ---: | ---: |
| * geomean | 343 | 330 | -13 | -3.8% [-5.0%, -2.5%] | 5/5 boots × 2 items |
| helloworld | 110 | 108 | -2 | -1.8% [-3.0%, -1.0%] | 5/5, 1 failed and 0 loaded used |
| Kindle | 629 | - | - | - | 5/0 |
)golden");
    CHECK(
        bb::render_per_item_view(per_item_fixture(), ReportFormat::Csv) ==
        R"golden(row,item,axis,base,other,n_base,n_other,median_base,median_other,diff,ratio,ratio_ci_low,ratio_ci_high,unit
geomean,,variant,base,opt_rspin,5,5,343,330,-13,0.9621,0.95,0.975,ms
item,helloworld,variant,base,opt_rspin,5,5,110,108,-2,0.9818181818181818,0.97,0.99,ms
item,Kindle,variant,base,opt_rspin,5,0,629,,,,,,ms
)golden");
    CHECK(
        nlohmann::json::parse(bb::render_per_item_view(per_item_fixture(), ReportFormat::Json)) ==
        nlohmann::json::parse(
            R"golden({"base":"base","by":"variant","comparisons":[{"geomean":{"base":343.0,"boots_base":5,"boots_other":5,"boots_skipped":0,"ci_coverage":0.9683,"endpoint":"per-boot geomean over the items","insufficient":"","items":2,"other":330.0,"p":0.0079,"ratio":0.9621,"ratio_ci":[0.95,0.975]},"items":[{"diff":-2.0,"diff_ci":[null,null],"item":"helloworld","median_base":110.0,"median_other":108.0,"n_base":5,"n_other":5,"p":null,"ratio":0.9818181818181818,"ratio_ci":[0.97,0.99]},{"diff":null,"diff_ci":[null,null],"item":"Kindle","median_base":629.0,"median_other":null,"n_base":5,"n_other":0,"p":null,"ratio":null,"ratio_ci":[null,null]}],"other":"opt_rspin"}],"prefix":"launch","unit":"ms","view":"per-item"})golden"));
}

TEST_CASE("percent changes carry their sign", "[views][render]") {
    CHECK(bb::percent_change_text(1.038) == "+3.8%");
    CHECK(bb::percent_change_text(0.962) == "-3.8%");
    CHECK(bb::percent_change_text(1.0) == "+0.0%");
    CHECK(bb::percent_change_text(NAN) == "-");
}

TEST_CASE("aligned text keeps a name with a line break on its row", "[views][render]") {
    bb::Table table;
    table.headers = {"variant", "n"};
    table.right_aligned = {false, true};
    table.rows = {{"a&b\nc", "1"}, {"<script>", "12"}};
    CHECK(bb::render_aligned(table) == "variant    n\n"
                                       "a&b c      1\n"
                                       "<script>  12\n");
}
