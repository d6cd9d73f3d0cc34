// report/noise_warnings: outliers are named by boot, a spread above 10 % of the mean is said,
// and a steady cell gets no warning (issue 49, item 7).
#include "report/noise_warnings.h"
#include "report/run_summary.h"

#include <catch2/catch.hpp>
#include <cstdlib>

TEST_CASE("noise: an outlier is named with its boot and time, against the median") {
    const std::vector<double> seconds{1.00, 1.01, 0.99, 1.02, 1.00, 2.50};
    const std::vector<long long> ids{11, 12, 13, 14, 15, 16};
    const auto warnings = bb::noise_warnings("hz=250", seconds, ids);
    REQUIRE(warnings.size() == 2); // the outlier also drives the SD above 10 %
    CHECK(warnings[0] == "warning: hz=250: 1 outlier (modified Z > 3.5): boot 16 2.500 s "
                         "(median 1.005 s)");
    CHECK(warnings[1].starts_with("warning: hz=250: SD "));
    CHECK(warnings[1].ends_with("% of the mean (> 10 %) over 6 boots"));
}

TEST_CASE("noise: a steady cell, or one of two boots, gets no warning") {
    CHECK(bb::noise_warnings("c", {1.00, 1.01, 0.99, 1.02, 1.00}, {}).empty());
    CHECK(bb::noise_warnings("c", {1.0, 9.0}, {}).empty());
}

TEST_CASE("noise: a wide spread without a single outlier is said as SD over the mean") {
    const auto warnings = bb::noise_warnings("c", {1.0, 1.3, 0.8, 1.2, 0.9, 1.1}, {});
    REQUIRE(warnings.size() == 1);
    CHECK(warnings[0] == "warning: c: SD 17.8 % of the mean (> 10 %) over 6 boots");
}

TEST_CASE("run summary: metrics stay within the width, the rest counted, and noise is said below") {
    setenv("COLUMNS", "120", 1);
    bb::CellResult cell;
    cell.cell_key = "hz=250";
    cell.boots = 6;
    cell.ok = 6;
    cell.boot_seconds = {1.00, 1.01, 0.99, 1.02, 1.00, 2.50};
    cell.boot_ids = {1, 2, 3, 4, 5, 6};
    for (int i = 0; i < 60; ++i) {
        const std::string name = "guest_metric_" + std::to_string(100 + i);
        cell.metrics[name] = {1.5};
        cell.metric_units[name] = "ms";
    }
    const std::string text = bb::render_run_summary({cell});
    size_t longest = 0;
    size_t start = 0;
    while (start < text.size()) {
        const size_t end = text.find('\n', start);
        std::string line = text.substr(start, end - start);
        // Columns, not bytes: "±" and "σ" are two bytes each and one column.
        size_t columns = 0;
        for (const unsigned char c : line) {
            columns += (c & 0xC0U) != 0x80U ? 1 : 0;
        }
        if (!line.starts_with("warning:") && !line.starts_with("  noisy")) {
            longest = std::max(longest, columns);
        }
        start = end + 1;
    }
    unsetenv("COLUMNS");
    CHECK(longest <= 120);
    CHECK(text.find("more\n") != std::string::npos);
    CHECK(text.find("warning: hz=250: 1 outlier (modified Z > 3.5): boot 6 2.500 s") !=
          std::string::npos);
    CHECK(text.find("bootbench doctor") != std::string::npos);
}
