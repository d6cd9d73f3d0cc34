#include "console/metric_extractor.h"
#include "test_support.h"
#include "util/error.h"

#include <catch2/catch.hpp>

using bb::extract_metrics;
using bb::LineExtractor;

TEST_CASE("value extractors scale every match, in order", "[metrics]") {
    const std::string log = "srcu-scale: start: 1 end: 2 duration: 5000 gps: 10 batches: 7\n"
                            "noise\n"
                            "srcu-scale: start: 3 end: 4 duration: 2500 gps: 10 batches: 9\n";
    const auto out =
        extract_metrics(log, {{"batches", R"(batches: (\d+))", "count"},
                              {"duration", R"(duration: (\d+))", "s", false, 1e-3, 0}});
    REQUIRE(out.metrics.size() == 4);
    CHECK(out.metrics[0].name == "batches");
    CHECK(out.metrics[0].value == 7);
    CHECK(out.metrics[1].name == "duration");
    CHECK(out.metrics[1].value == Approx(5.0));
    CHECK(out.metrics[3].value == Approx(2.5));
    CHECK(out.histograms.empty());
}

TEST_CASE("a histogram extractor buckets every match and reports exact percentiles", "[metrics]") {
    // Ten rcuscale-like lines, durations in ns: 1..10 ms.
    std::string log;
    for (int i = 1; i <= 10; ++i) {
        log += "srcu-scale:    0 writer-duration: " + std::to_string(i - 1) + " " +
               std::to_string(i * 1'000'000) + "\n";
    }
    LineExtractor gp{"gp", R"(writer-duration: +\d+ (\d+))", "us", true, 1e-3, 4000};
    const auto out = extract_metrics(log, {gp});
    // 1000..3000 in [0,4000), 4000..7000 in [4000,8000), 8000..10000 in [8000,12000).
    REQUIRE(out.histograms.size() == 3);
    CHECK(out.histograms[0].lo == 0);
    CHECK(out.histograms[0].hi == 4000);
    CHECK(out.histograms[0].count == 3);
    CHECK(out.histograms[1].count == 4);
    CHECK(out.histograms[2].lo == 8000);
    CHECK(out.histograms[2].count == 3);
    auto metric = [&](const std::string& name) {
        for (const auto& m : out.metrics) {
            if (m.name == name) {
                return m.value;
            }
        }
        FAIL("no metric " << name);
        return -1.0;
    };
    CHECK(metric("gp_n") == 10);
    CHECK(metric("gp_p50") == Approx(5000)); // nearest rank: ceil(0.5 * 10) = 5th
    CHECK(metric("gp_p90") == Approx(9000));
    CHECK(metric("gp_p99") == Approx(10000));
    CHECK(metric("gp_max") == Approx(10000));
}

TEST_CASE("no match, no histogram and no summary metrics", "[metrics]") {
    const auto out = extract_metrics("nothing here\n", {{"gp", "took (\\d+)", "us", true, 1, 10}});
    CHECK(out.metrics.empty());
    CHECK(out.histograms.empty());
}

TEST_CASE("nearest-rank percentiles", "[metrics]") {
    CHECK_FALSE(bb::nearest_rank_percentile({}, 0.5));
    CHECK(*bb::nearest_rank_percentile({3, 1, 2}, 0.5) == 2);
    CHECK(*bb::nearest_rank_percentile({3, 1, 2}, 0.0) == 1);
    CHECK(*bb::nearest_rank_percentile({3, 1, 2}, 1.0) == 3);
}

TEST_CASE("values that are no number, or whose bucket is beyond any integer, are dropped",
          "[metrics]") {
    const auto values =
        extract_metrics("took nan\ntook 1e999\ntook 7\n", {{"t", R"(took (\S+))", "us"}});
    REQUIRE(values.metrics.size() == 1);
    CHECK(values.metrics[0].value == 7);
    const auto histogram =
        extract_metrics("took 1e300\ntook 7\n", {{"t", R"(took (\S+))", "us", true, 1, 10}});
    REQUIRE(histogram.histograms.size() == 1);
    CHECK(histogram.histograms[0].lo == 0);
}

TEST_CASE("patterns match bytes as the kernel printed them, invalid UTF-8 included", "[metrics]") {
    const auto out = extract_metrics("srcu-scale: \xff\xfe garbage batches: 12\n",
                                     {{"b", R"(srcu-scale: .* batches: (\d+))", "count"}});
    REQUIRE(out.metrics.size() == 1);
    CHECK(out.metrics[0].value == 12);
}

TEST_CASE("a pattern RE2 refuses is an error naming the metric", "[metrics]") {
    const std::string message = bb::test::thrown_message<bb::Error>([] {
        extract_metrics("took 5 ms\n", {{"t", R"(took (\d+)(?= ms))", "ms"}});
    });
    CHECK(message == "metric t: bad regex: invalid perl operator: (?=");
}
