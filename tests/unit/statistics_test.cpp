#include "report/statistics.h"
#include "stats/sorted.h"
#include "util/units.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

using bb::TimeUnit;

TEST_CASE("summarize a textbook sample", "[statistics]") {
    // Mean 5; squared deviations sum to 32; sample variance 32/7.
    const auto summary = bb::summarize({2, 4, 4, 4, 5, 5, 7, 9});
    CHECK(summary.n == 8);
    CHECK(summary.mean == Approx(5.0));
    CHECK(summary.stddev == Approx(std::sqrt(32.0 / 7.0)));
    CHECK(summary.stddev == Approx(2.1380899353));
    CHECK(summary.median == Approx(4.5));
    CHECK(summary.min == 2.0);
    CHECK(summary.max == 9.0);
}

TEST_CASE("summarize does not depend on input order", "[statistics]") {
    const auto summary = bb::summarize({9, 2, 5, 4, 7, 4, 5, 4});
    CHECK(summary.median == Approx(4.5));
    CHECK(summary.min == 2.0);
    CHECK(summary.max == 9.0);
    CHECK(summary.mean == Approx(5.0));
}

TEST_CASE("summarize of zero and one values", "[statistics]") {
    const auto empty = bb::summarize({});
    CHECK(empty.n == 0);
    CHECK(empty.mean == 0.0);
    CHECK(empty.stddev == 0.0);
    CHECK(empty.median == 0.0);
    CHECK(empty.min == 0.0);
    CHECK(empty.max == 0.0);

    const auto one = bb::summarize({3.5});
    CHECK(one.n == 1);
    CHECK(one.mean == 3.5);
    CHECK(one.stddev == 0.0); // n - 1 = 0: no spread to estimate
    CHECK(one.median == 3.5);
    CHECK(one.min == 3.5);
    CHECK(one.max == 3.5);

    const auto two = bb::summarize({1.0, 2.0});
    CHECK(two.mean == Approx(1.5));
    CHECK(two.stddev == Approx(std::sqrt(0.5)));
    CHECK(two.median == Approx(1.5));
}

TEST_CASE("the one median: odd, even and empty sets", "[statistics]") {
    using bb::stats::sorted_median_of;
    CHECK(sorted_median_of(std::vector<double>{3, 1, 2}) == 2.0);
    CHECK(sorted_median_of(std::vector<double>{4, 1, 3, 2}) == 2.5);
    CHECK(sorted_median_of(std::vector<double>{7}) == 7.0);
    CHECK(std::isnan(sorted_median_of(std::vector<double>{}))); // no value is never 0
    CHECK(sorted_median_of(std::vector<double>{-1, -5, 10}) == -1.0);
}

TEST_CASE("modified z-scores use the median absolute deviation", "[statistics]") {
    // Median 3; absolute deviations {2, 1, 0, 1, 97}; MAD = 1; z = 0.6745 * (x - 3) / 1.
    const std::vector<double> values{1, 2, 3, 4, 100};
    const auto z = bb::modified_z_scores(values);
    REQUIRE(z.size() == 5);
    CHECK(z[0] == Approx(-1.349));
    CHECK(z[1] == Approx(-0.6745));
    CHECK(z[2] == Approx(0.0));
    CHECK(z[3] == Approx(0.6745));
    CHECK(z[4] == Approx(65.4265));
    CHECK(bb::count_outliers(values) == 1);
    CHECK(bb::count_outliers(values, 1.0) == 2);
    CHECK(bb::count_outliers(values, 100.0) == 0);
}

TEST_CASE("modified z-scores of an even-sized set", "[statistics]") {
    // Median (10 + 12) / 2 = 11; deviations {5, 3, 1, 1, 3, 39}, sorted {1, 1, 3, 3, 5, 39}:
    // MAD = 3.
    const std::vector<double> values{6, 8, 10, 12, 14, 50};
    const auto z = bb::modified_z_scores(values);
    REQUIRE(z.size() == 6);
    CHECK(z[0] == Approx(0.6745 * -5 / 3));
    CHECK(z[2] == Approx(0.6745 * -1 / 3));
    CHECK(z[5] == Approx(0.6745 * 39 / 3)); // 8.77: an outlier
    CHECK(bb::count_outliers(values) == 1);
}

TEST_CASE("identical values have no outliers", "[statistics]") {
    const std::vector<double> same{1.25, 1.25, 1.25, 1.25};
    for (double z : bb::modified_z_scores(same)) {
        CHECK(z == 0.0);
    }
    CHECK(bb::count_outliers(same) == 0);
    CHECK(bb::modified_z_scores({}).empty());
    CHECK(bb::count_outliers({}) == 0);
}

TEST_CASE("one unit for a value, hyperfine style", "[units]") {
    CHECK(bb::unit_for_seconds(6.1) == TimeUnit::Seconds);
    CHECK(bb::unit_for_seconds(1.0) == TimeUnit::Seconds);
    CHECK(bb::unit_for_seconds(0.999) == TimeUnit::Milliseconds);
    CHECK(bb::unit_for_seconds(0.001) == TimeUnit::Milliseconds);
    CHECK(bb::unit_for_seconds(0.000999) == TimeUnit::Microseconds);
    CHECK(bb::unit_for_seconds(0.0) == TimeUnit::Seconds);
    CHECK(bb::unit_for_seconds(-0.5) == TimeUnit::Milliseconds); // by magnitude
}

TEST_CASE("seconds are formatted in the chosen unit", "[units]") {
    CHECK(bb::format_seconds(6.1234) == "6.123 s");
    CHECK(bb::format_seconds(0.4123) == "412.3 ms");
    CHECK(bb::format_seconds(0.0000123) == "12.3 \xc2\xb5s");
    CHECK(bb::format_seconds(0.0) == "0.000 s");
    // A σ printed beside a mean keeps the mean's unit.
    CHECK(bb::format_seconds(0.0098, TimeUnit::Seconds) == "0.010 s");
    CHECK(bb::format_seconds(0.101, TimeUnit::Seconds) == "0.101 s");
    CHECK(bb::format_seconds(1.5, TimeUnit::Milliseconds) == "1500.0 ms");
    CHECK(bb::format_seconds(0.0025, TimeUnit::Microseconds) == "2500.0 \xc2\xb5s");
}

TEST_CASE("bytes are formatted in binary units", "[units]") {
    CHECK(bb::format_bytes(0) == "0 B");
    CHECK(bb::format_bytes(1023) == "1023 B");
    CHECK(bb::format_bytes(1024) == "1.0 KiB");
    CHECK(bb::format_bytes(1536) == "1.5 KiB");
    CHECK(bb::format_bytes(1024.0 * 1024) == "1.0 MiB");
    CHECK(bb::format_bytes(32.0 * 1024 * 1024) == "32.0 MiB");
    CHECK(bb::format_bytes(3.0 * 1024 * 1024 * 1024) == "3.0 GiB");
    CHECK(bb::format_bytes(5.0 * 1024 * 1024 * 1024 * 1024) == "5.0 TiB");
    CHECK(bb::format_bytes(2048.0 * 1024 * 1024 * 1024 * 1024) == "2048.0 TiB"); // no PiB
}
