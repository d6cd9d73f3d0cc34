// The guest programs' statistics (guest-images/programs/latency_stats.h, plain C included as is):
// the same nearest-rank rule and bucket edges as the host's histogram extractors, and output
// lines the console monitor parses.
#include "console/console_monitor.h"
#include "console/metric_extractor.h"

// C, so C casts: only this warning is C++-specific.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wold-style-cast"
#include "../../guest-images/programs/latency_stats.h"
#pragma GCC diagnostic pop

#include <catch2/catch.hpp>
#include <cstdio>
#include <string>
#include <vector>

namespace {

// Runs a printer on a memory stream and returns what it wrote.
template <class Print> std::string printed(Print&& print) {
    char* buffer = nullptr;
    size_t size = 0;
    FILE* out = open_memstream(&buffer, &size);
    REQUIRE(out != nullptr);
    print(out);
    std::fclose(out);
    std::string text(buffer, size);
    std::free(buffer);
    return text;
}

} // namespace

TEST_CASE("guest percentiles use the host's nearest-rank rule", "[latency_stats]") {
    std::vector<uint64_t> values{50, 10, 40, 30, 20, 60, 70, 100, 90, 80};
    latency_sort(values.data(), values.size());
    CHECK(values.front() == 10);
    CHECK(values.back() == 100);
    CHECK(latency_percentile(values.data(), values.size(), 500) == 50);
    CHECK(latency_percentile(values.data(), values.size(), 900) == 90);
    CHECK(latency_percentile(values.data(), values.size(), 990) == 100);
    CHECK(latency_percentile(values.data(), values.size(), 0) == 10);
    for (const unsigned permille : {10u, 250u, 500u, 900u, 990u, 1000u}) {
        const std::vector<double> as_double(values.begin(), values.end());
        CHECK(static_cast<double>(latency_percentile(values.data(), values.size(), permille)) ==
              *bb::nearest_rank_percentile(as_double, permille / 1000.0));
    }
    const uint64_t single = 7;
    CHECK(latency_percentile(&single, 1, 990) == 7);
}

TEST_CASE("guest histograms: non-empty buckets only, in order, every sample counted",
          "[latency_stats]") {
    std::vector<uint64_t> values{16300, 9999, 0, 10000, 19999, 45000, 16000};
    latency_sort(values.data(), values.size());
    const std::string text = printed([&](FILE* out) {
        latency_print_histogram(out, "sync_rcu_us", values.data(), values.size(), 10000);
    });
    CHECK(text == "BOOTBENCH-HIST sync_rcu_us 0 10000 2\n"
                  "BOOTBENCH-HIST sync_rcu_us 10000 20000 4\n"
                  "BOOTBENCH-HIST sync_rcu_us 40000 50000 1\n");
    CHECK(printed([&](FILE* out) {
              latency_print_histogram(out, "x", values.data(), 0, 10);
          }).empty());
}

TEST_CASE("guest output is what the console monitor stores", "[latency_stats]") {
    std::vector<uint64_t> values{12000, 15000, 31000, 18000};
    latency_sort(values.data(), values.size());
    const std::string text = printed([&](FILE* out) {
        latency_print_histogram(out, "sync_rcu_us", values.data(), values.size(), 10000);
        latency_print_summary(out, "sync_rcu_us", values.data(), values.size(), "us");
    });
    CHECK(text.find("BOOTBENCH-METRIC sync_rcu_us_p50 15000 us\n") != std::string::npos);

    bb::ConsoleMonitor monitor;
    monitor.feed("BOOTBENCH-MARKER boot-done 1.0\r\n" + text, 1.0);
    const auto& histograms = monitor.histograms();
    REQUIRE(histograms.size() == 2);
    CHECK(histograms[0].name == "sync_rcu_us");
    CHECK(histograms[0].lo == 10000);
    CHECK(histograms[0].hi == 20000);
    CHECK(histograms[0].count == 3);
    CHECK(histograms[1].lo == 30000);
    CHECK(histograms[1].count == 1);
    std::vector<std::pair<std::string, double>> metrics;
    for (const auto& metric : monitor.metrics()) {
        metrics.emplace_back(metric.name, metric.value);
        CHECK(metric.unit == (metric.name == "sync_rcu_us_n" ? "count" : "us"));
    }
    CHECK(metrics == std::vector<std::pair<std::string, double>>{{"sync_rcu_us_n", 4},
                                                                 {"sync_rcu_us_p50", 15000},
                                                                 {"sync_rcu_us_p90", 31000},
                                                                 {"sync_rcu_us_p99", 31000},
                                                                 {"sync_rcu_us_max", 31000}});
}
