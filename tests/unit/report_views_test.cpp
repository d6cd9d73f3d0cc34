// The seed-shaped views computed from hand-made sample sets: parameter table, histograms,
// per-item table. Values are chosen so every expectation can be worked out by hand.
#include "report/histogram_view.h"
#include "report/param_table.h"
#include "report/per_item_view.h"
#include "test_support.h"
#include "util/error.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

using bb::AxisValue;
using bb::Sample;
using bb::SampleGroup;
using bb::SampleSet;

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

long long next_boot_id = 1;

// A group whose used samples have `values`, plus `failed` failed boots without a value.
SampleGroup group(std::vector<AxisValue> key, const std::vector<double>& values, int failed = 0) {
    SampleGroup g;
    g.key = std::move(key);
    for (double value : values) {
        Sample sample;
        sample.boot_id = next_boot_id++;
        sample.outcome = "ok";
        sample.value = value;
        g.samples.push_back(sample);
        g.values.push_back(value);
    }
    for (int i = 0; i < failed; ++i) {
        Sample sample;
        sample.boot_id = next_boot_id++;
        sample.outcome = "panic";
        sample.use = Sample::Use::Failed;
        g.samples.push_back(sample);
        ++g.failed;
    }
    return g;
}

SampleSet sample_set(std::vector<std::string> axes, std::vector<SampleGroup> groups,
                     const std::string& metric = "boot_seconds") {
    SampleSet set;
    set.metric = metric;
    set.unit = metric == "boot_seconds" ? "s" : "ms";
    set.seconds = metric == "boot_seconds";
    set.axes = std::move(axes);
    set.groups = std::move(groups);
    for (const auto& g : set.groups) {
        set.boots += static_cast<int>(g.samples.size());
        set.used += static_cast<int>(g.values.size());
    }
    return set;
}

bb::EstimateOptions quick() {
    return {};
}

// A group whose boots have ids first_id, first_id + 1, …: one boot's items share its id.
SampleGroup boots_from(std::vector<AxisValue> key, const std::vector<double>& values,
                       long long first_id) {
    SampleGroup g = group(std::move(key), values);
    for (auto& sample : g.samples) {
        sample.boot_id = first_id++;
    }
    return g;
}

} // namespace

// ---- parameter table ----

TEST_CASE("param table rows sort numerically, numeric text included", "[views][param]") {
    // As query_samples would sort them: integers first, then text ("250" as stored text).
    const SampleSet set = sample_set(
        {"phase"}, {group({integer(1000)}, {11.4}), group({integer(100)}, {30.0, 30.1, 29.9}),
                    group({text("250")}, {15.7}), group({text("off")}, {9.0})});
    const bb::ParamTable table = bb::build_param_table(set, quick());
    REQUIRE(table.rows.size() == 4);
    CHECK(table.rows[0].label() == "100");
    CHECK(table.rows[1].label() == "250");
    CHECK(table.rows[2].label() == "1000");
    CHECK(table.rows[3].label() == "off");
    REQUIRE(table.columns.size() == 1);
    CHECK_FALSE(table.column_axis.has_value());
    REQUIRE(table.cells[0][0].has_value());
    CHECK(table.cells[0][0]->median.n == 3);
    CHECK(table.cells[0][0]->median.median == Approx(30.0));
    CHECK(table.cells[0][0]->median.ci.low >= 29.9);
    CHECK(table.cells[0][0]->median.ci.high <= 30.1);
    CHECK(table.cells[2][0]->median.median == Approx(11.4));
}

TEST_CASE("param table with a column axis: one cell per (value, variant)", "[views][param]") {
    const SampleSet set =
        sample_set({"phase", "variant"}, {group({integer(100), text("prefix")}, {30.0}),
                                          group({integer(100), text("stock")}, {12.0, 14.0}, 1),
                                          group({integer(1000), text("stock")}, {11.0}),
                                          group({integer(1000), text("prefix")}, {})});
    const bb::ParamTable table = bb::build_param_table(set, quick());
    REQUIRE(table.column_axis == std::string("variant"));
    REQUIRE(table.columns.size() == 2);
    CHECK(table.columns[0].label() == "prefix");
    CHECK(table.columns[1].label() == "stock");
    const auto& stock_100 = table.cells[0][1];
    REQUIRE(stock_100.has_value());
    CHECK(stock_100->median.n == 2);
    CHECK(stock_100->median.median == Approx(13.0));
    CHECK(stock_100->excluded == 1);
    // An empty group (every boot excluded) still has a cell, with n = 0 and no median.
    const auto& prefix_1000 = table.cells[1][0];
    REQUIRE(prefix_1000.has_value());
    CHECK(prefix_1000->median.n == 0);
    CHECK(std::isnan(prefix_1000->median.median));
}

TEST_CASE("param table: the trend runs down each column's numeric rows", "[views][param]") {
    // Falling everywhere: J = 0, the smallest of 9!/(3!·3!·3!) = 1680 equally likely orders,
    // so the exact two-sided p is 2/1680. The text row would break the fall: left out.
    const SampleSet set = sample_set(
        {"phase"}, {group({integer(100)}, {30, 31, 29}), group({integer(250)}, {15, 16, 14}),
                    group({integer(1000)}, {11, 12, 10}), group({text("off")}, {50})});
    const bb::ParamTable table = bb::build_param_table(set, quick());
    REQUIRE(table.trends.size() == 1);
    const bb::ColumnTrend& trend = table.trends[0];
    CHECK(trend.rows == 3);
    CHECK(trend.test.answered());
    CHECK(trend.test.n_a == 9);
    CHECK(trend.test.estimate == 0);
    CHECK(trend.test.p_value == Approx(2.0 / 1680));
    CHECK(trend.null_mean == Approx(13.5)); // (3·3 + 3·3 + 3·3) / 2
    CHECK(trend.order == bb::MedianOrder::NonIncreasing);
}

TEST_CASE("param table: a column with one row has no trend, a rise is named", "[views][param]") {
    const SampleSet set =
        sample_set({"phase", "variant"}, {group({integer(100), text("table")}, {10, 11}),
                                          group({integer(500), text("table")}, {12, 13}),
                                          group({integer(1000), text("table")}, {12.5, 12.5}),
                                          group({integer(1000), text("fixed")}, {5, 6})});
    const bb::ParamTable table = bb::build_param_table(set, quick());
    REQUIRE(table.trends.size() == 2);
    CHECK(table.columns[0].label() == "fixed");
    CHECK_FALSE(table.trends[0].test.answered());
    CHECK(table.trends[0].rows == 1);
    CHECK(table.trends[1].rows == 3);
    CHECK(table.trends[1].order == bb::MedianOrder::NonDecreasing);
    // 4 (100 < 500) + 4 (100 < 1000) + 2 (500 < 1000: 12 < 12.5 twice) of 12 pairs rise
    CHECK(table.trends[1].test.estimate == 10);
}

TEST_CASE("param table: a single sample gives a degenerate interval", "[views][param]") {
    const bb::ParamTable table =
        bb::build_param_table(sample_set({"phase"}, {group({integer(5)}, {2.5})}), quick());
    CHECK(table.cells[0][0]->median.ci.low == 2.5);
    CHECK(table.cells[0][0]->median.ci.high == 2.5);
}

// ---- histogram view ----

TEST_CASE("histogram view merges the used boots of each group", "[views][histogram]") {
    next_boot_id = 100;
    SampleGroup stock = group({text("stock")}, {1, 1}, 1); // boots 100, 101 used; 102 failed
    SampleGroup wake = group({text("wake")}, {1, 1});      // boots 103, 104
    const SampleSet set = sample_set({"variant"}, {stock, wake}, "wall_seconds");
    bb::BootHistograms stored;
    stored[100] = {{0, 9999, 2}, {10000, 19999, 2}};
    stored[101] = {{10000, 19999, 4}};
    stored[102] = {{0, 9999, 1000}}; // failed boot: never merged
    stored[103] = {{20000, 29999, 5}};
    // boot 104 printed no histogram

    const bb::HistogramView view = bb::build_histogram_view(set, stored, "lat", 10000, quick());
    REQUIRE(view.groups.size() == 2);
    const auto& a = view.groups[0];
    CHECK(a.used == 2);
    CHECK(a.excluded == 1);
    CHECK(a.without == 0);
    CHECK(a.merged.total() == 8);
    CHECK(a.merged.counts.at(0) == 2);
    CHECK(a.merged.counts.at(1) == 6);
    // 8 values: rank 4 lies in [10000, 20000) after 2 below: 10000 + 2/6 · 10000.
    CHECK(a.p50 == Approx(10000 + 2.0 / 6 * 10000));
    REQUIRE(a.boot_p50s.size() == 2);
    CHECK(a.boot_p50s[0] == Approx(10000)); // boot 100: rank 2 ends bucket 0
    CHECK(a.boot_p50s[1] == Approx(15000)); // boot 101: middle of its only bucket
    const auto& b = view.groups[1];
    CHECK(b.used == 1);
    CHECK(b.without == 1);
    CHECK(b.p50 == Approx(25000));
    REQUIRE(view.shifts.size() == 1);
    CHECK(view.shifts[0].group == 1);
    // Median of per-boot p50s: A 12500, B 25000.
    CHECK(view.shifts[0].comparison.difference == Approx(12500));
    CHECK(view.shifts[0].comparison.verdict == bb::Comparison::Verdict::Insufficient);

    const auto shown = bb::shown_buckets(view);
    CHECK(shown == std::vector<long long>{0, 1, 2});
    CHECK(bb::bucket_label(view, 1) == "10000 - 19999");
}

TEST_CASE("histogram view: default width, empty groups, too many buckets", "[views][histogram]") {
    next_boot_id = 200;
    const SampleSet set =
        sample_set({"variant"}, {group({text("a")}, {1}), group({text("b")}, {})}, "wall_seconds");
    bb::BootHistograms stored;
    stored[200] = {{0, 4999, 1}, {5000, 9999, 1}, {1000000, 1004999, 1}};
    const bb::HistogramView view = bb::build_histogram_view(set, stored, "lat", {}, quick());
    CHECK(view.width == 5000);
    CHECK(std::isnan(view.groups[1].p50));
    CHECK(view.groups[1].merged.total() == 0);
    CHECK(view.shifts[0].comparison.n_b == 0);
    // 0 … 1004999 in buckets of 5000 is 201 rows: shown.
    CHECK(bb::shown_buckets(view).size() == 201);
    // Finer than stored would invent resolution (issue 32, item 7: 1 µs built millions of
    // buckets first, 0.1 ran out of memory, 1e-300 printed nothing): refused before any bucket.
    for (const double finer : {100.0, 1.0, 0.1, 1e-300}) {
        INFO(finer);
        CHECK_THAT(bb::test::thrown_message<bb::Error>(
                       [&] { bb::build_histogram_view(set, stored, "lat", finer, quick()); }),
                   Catch::Contains("would invent resolution"));
    }
    // More rows than a histogram shows, at a width the data allows: said at once, too.
    bb::BootHistograms wide;
    wide[200] = {{0, 4999, 1}, {5000, 9999, 1}, {20000000, 20004999, 1}};
    CHECK_THAT(bb::test::thrown_message<bb::Error>(
                   [&] { bb::build_histogram_view(set, wide, "lat", 5000, quick()); }),
               Catch::Contains("wider --bucket-us"));
    bb::BootHistograms fine;
    fine[200] = {{0, 0.5, 1}, {0.5, 1, 1}, {1.5, 2, 1}};
    CHECK(bb::bucket_label(bb::build_histogram_view(set, fine, "lat", 0.5, quick()), 3) ==
          "[1.5, 2)");
}

TEST_CASE("histogram view: shifts against the base at the same values of the other axes",
          "[views][histogram]") {
    next_boot_id = 300;
    // Groups sorted as the store sorts them: smp, then variant ("auto" before "stock").
    const SampleSet set = sample_set(
        {"smp", "variant"},
        {group({integer(2), text("auto")}, {1}), group({integer(2), text("stock")}, {1}),
         group({integer(8), text("auto")}, {1}), group({integer(8), text("stock")}, {1})},
        "wall_seconds");
    bb::BootHistograms stored;
    stored[300] = {{10000, 19999, 1}}; // smp 2 auto: p50 15000
    stored[301] = {{20000, 29999, 1}}; // smp 2 stock: 25000
    stored[302] = {{40000, 49999, 1}}; // smp 8 auto: 45000
    stored[303] = {{70000, 79999, 1}}; // smp 8 stock: 75000
    const bb::HistogramView view = bb::build_histogram_view(set, stored, "lat", 10000, quick());
    // Default base "stock": auto vs stock within each smp, never across smp.
    REQUIRE(view.shifts.size() == 2);
    CHECK(view.shifts[0].base == 1);
    CHECK(view.shifts[0].group == 0);
    CHECK(view.shifts[0].comparison.difference == Approx(-10000));
    CHECK(view.shifts[1].base == 3);
    CHECK(view.shifts[1].group == 2);
    CHECK(view.shifts[1].comparison.difference == Approx(-30000));

    const bb::HistogramView by_auto =
        bb::build_histogram_view(set, stored, "lat", 10000, quick(), std::string("auto"));
    REQUIRE(by_auto.shifts.size() == 2);
    CHECK(by_auto.shifts[0].base == 0);
    CHECK(by_auto.shifts[0].comparison.difference == Approx(10000));

    const std::string message = bb::test::thrown_message<bb::Error>(
        [&] { bb::build_histogram_view(set, stored, "lat", 10000, quick(), std::string("x")); });
    CHECK(message == "--base x: no group has that value of its last --by axis; values there: "
                     "auto, stock");
}

// ---- per-item view ----

namespace {
// Three stock boots (ids 1–3) and three opt boots (ids 11–13), each printing every item.
std::vector<std::pair<std::string, SampleSet>> launch_items() {
    return {
        {"browser", sample_set({"variant"},
                               {boots_from({text("opt")}, {240, 250, 230}, 11),
                                boots_from({text("stock")}, {200, 210, 190}, 1)},
                               "launch.browser")},
        {"camera", sample_set({"variant"},
                              {boots_from({text("opt")}, {99, 100, 101}, 11),
                               boots_from({text("stock")}, {100, 110, 120}, 1)},
                              "launch.camera")},
        // Only the base has it: shown, but outside the geomean endpoint.
        {"kindle", sample_set({"variant"}, {boots_from({text("stock")}, {629, 630, 631}, 1)},
                              "launch.kindle")},
    };
}
} // namespace

TEST_CASE("per-item view: medians, shifts and the per-boot geomean row", "[views][per-item]") {
    const bb::PerItemView view = bb::build_per_item_view("launch", launch_items(), {}, quick());
    // "stock" is the default base even though "opt" sorts first.
    CHECK(view.base.label() == "stock");
    CHECK(view.axis == "variant");
    REQUIRE(view.comparisons.size() == 1);
    const auto& c = view.comparisons[0];
    CHECK(c.other.label() == "opt");
    REQUIRE(c.items.size() == 3);
    CHECK(c.items[0].item == "browser");
    CHECK(c.items[0].comparison.median_a == 200);
    CHECK(c.items[0].comparison.median_b == 240);
    CHECK(c.items[0].comparison.difference == Approx(40)); // median of the 9 differences
    CHECK(c.items[1].comparison.median_a == 110);
    CHECK(c.items[1].comparison.median_b == 100);
    CHECK(c.items[2].comparison.n_b == 0);
    // The endpoint: each boot's geomean over browser and camera (kindle: base only).
    CHECK(c.geomean.items == 2);
    CHECK(c.geomean.n_base == 3);
    CHECK(c.geomean.n_other == 3);
    CHECK(c.geomean.skipped == 0);
    const std::vector<double> stock{std::sqrt(200.0 * 100), std::sqrt(210.0 * 110),
                                    std::sqrt(190.0 * 120)};
    const std::vector<double> opt{std::sqrt(240.0 * 99), std::sqrt(250.0 * 100),
                                  std::sqrt(230.0 * 101)};
    CHECK(c.base_geomean == Approx(stock[2])); // the median boot geomean
    CHECK(c.other_geomean == Approx(opt[0]));
    // Hodges–Lehmann ratio of the per-boot geomeans: the median of the 9 ratios opt/stock.
    std::vector<double> ratios;
    for (double b : opt) {
        for (double a : stock) {
            ratios.push_back(b / a);
        }
    }
    std::sort(ratios.begin(), ratios.end());
    CHECK(c.geomean.value == Approx(ratios[4]));
    // 3 boots against 3 can never reach a 95 % interval: said, not hidden.
    CHECK_FALSE(c.geomean.insufficient.empty());
    CHECK(c.geomean.coverage == Approx(0.9));
}

TEST_CASE("per-item view: a boot missing an item leaves the endpoint", "[views][per-item]") {
    auto items = launch_items();
    // Boot 13 printed no camera time: it cannot have a geomean over both items.
    items[1].second.groups[0] = boots_from({text("opt")}, {99, 100}, 11);
    const bb::PerItemView view = bb::build_per_item_view("launch", items, {}, quick());
    const auto& g = view.comparisons[0].geomean;
    CHECK(g.n_other == 2);
    CHECK(g.skipped == 1);
}

TEST_CASE("per-item view: an explicit base, and an unknown one", "[views][per-item]") {
    const bb::PerItemView view = bb::build_per_item_view("launch", launch_items(), "opt", quick());
    CHECK(view.base.label() == "opt");
    CHECK(view.comparisons[0].other.label() == "stock");
    CHECK(view.comparisons[0].items[0].comparison.median_a == 240);
    CHECK(view.comparisons[0].items[0].comparison.median_b == 200);
    const std::string message = bb::test::thrown_message<bb::Error>(
        [] { bb::build_per_item_view("launch", launch_items(), "stokc", quick()); });
    CHECK_THAT(message, Catch::Contains("--base stokc"));
    CHECK_THAT(message, Catch::Contains("opt, stock"));
}

TEST_CASE("per-item view: a single group leaves nothing to compare", "[views][per-item]") {
    const std::vector<std::pair<std::string, SampleSet>> items{
        {"x", sample_set({"variant"}, {group({text("stock")}, {1})}, "launch.x")}};
    const bb::PerItemView view = bb::build_per_item_view("launch", items, {}, quick());
    CHECK(view.comparisons.empty());
}
