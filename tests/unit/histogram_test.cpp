#include "report/histogram.h"
#include "report/histogram_view.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

using bb::Histogram;
using bb::StoredBucket;

namespace {

double count_at(const Histogram& histogram, long long index) {
    const auto found = histogram.counts.find(index);
    return found == histogram.counts.end() ? 0 : found->second;
}

// The <default> histogram of seed 002 (synchronize_rcu() latency, µs), kernel-style inclusive.
const std::vector<StoredBucket> k_seed_default{
    {0, 9999, 1},          {10000, 19999, 4},     {20000, 29999, 399},   {30000, 39999, 3197},
    {40000, 49999, 10428}, {50000, 59999, 17363}, {60000, 69999, 15529}, {70000, 79999, 9287},
    {80000, 89999, 4249},  {90000, 99999, 1915},  {100000, 109999, 922}, {110000, 119999, 390},
    {120000, 129999, 187}};

Histogram histogram_of(double width, std::vector<std::pair<long long, double>> counts) {
    Histogram histogram;
    histogram.width = width;
    for (const auto& [index, count] : counts) {
        histogram.counts[index] = count;
    }
    return histogram;
}

} // namespace

TEST_CASE("stored buckets keep their counts at their own width", "[histogram]") {
    const Histogram same = bb::rebucket(k_seed_default, 10000);
    CHECK(same.counts.size() == 13);
    CHECK(count_at(same, 0) == 1);
    CHECK(count_at(same, 5) == 17363);
    CHECK(count_at(same, 12) == 187);
    CHECK(same.total() == 63871);
    CHECK(same.split_buckets == 0);
}

TEST_CASE("re-bucketing to a wider width sums neighbours", "[histogram]") {
    const Histogram wide = bb::rebucket(k_seed_default, 20000);
    CHECK(count_at(wide, 0) == 1 + 4);
    CHECK(count_at(wide, 1) == 399 + 3197);
    CHECK(count_at(wide, 2) == 10428 + 17363);
    CHECK(count_at(wide, 6) == 187); // 120000 - 129999 alone in [120000, 140000)
    CHECK(wide.total() == 63871);
    CHECK(wide.split_buckets == 0);
}

TEST_CASE("half-open and inclusive stored edges land in the same buckets", "[histogram]") {
    const std::vector<StoredBucket> half_open{{0, 10000, 3}, {10000, 20000, 5}};
    const std::vector<StoredBucket> inclusive{{0, 9999, 3}, {10000, 19999, 5}};
    for (const auto& buckets : {half_open, inclusive}) {
        const Histogram h = bb::rebucket(buckets, 10000);
        CHECK(count_at(h, 0) == 3);
        CHECK(count_at(h, 1) == 5);
        CHECK(h.split_buckets == 0);
    }
    CHECK(bb::stored_bucket_step(half_open) == 10000);
    CHECK(bb::stored_bucket_step(inclusive) == 10000);
    CHECK(bb::stored_bucket_step(std::vector<StoredBucket>{{0, 5000, 1}}) == 5000);
    CHECK(bb::stored_bucket_step(std::vector<StoredBucket>{}) == 0);
}

TEST_CASE("a stored bucket straddling a boundary is split by overlap", "[histogram]") {
    // [5000, 25000) over buckets of 10000: a quarter, a half, a quarter.
    const Histogram h = bb::rebucket(std::vector<StoredBucket>{{5000, 25000, 8}}, 10000);
    CHECK(count_at(h, 0) == Approx(2));
    CHECK(count_at(h, 1) == Approx(4));
    CHECK(count_at(h, 2) == Approx(2));
    CHECK(h.split_buckets == 1);
    CHECK(h.total() == Approx(8));
}

TEST_CASE("empty, zero and negative buckets are ignored, bad widths refused", "[histogram]") {
    const Histogram h =
        bb::rebucket(std::vector<StoredBucket>{{0, 10, 0}, {10, 20, -3}, {20, 30, 2}}, 10);
    CHECK(h.counts.size() == 1);
    CHECK(count_at(h, 2) == 2);
    CHECK_THROWS(bb::rebucket(std::vector<StoredBucket>{}, 0));
    CHECK_THROWS(bb::rebucket(std::vector<StoredBucket>{}, -1));
}

TEST_CASE("percentiles interpolate linearly inside the bucket holding rank p·N", "[histogram]") {
    // 100 values: 10 in [0,10), 30 in [10,20), 60 in [20,30).
    const Histogram h = histogram_of(10, {{0, 10}, {1, 30}, {2, 60}});
    CHECK(bb::histogram_percentile(h, 0.10) == Approx(10.0));                // end of bucket 0
    CHECK(bb::histogram_percentile(h, 0.25) == Approx(10 + 15.0 / 30 * 10)); // 15.0
    CHECK(bb::histogram_percentile(h, 0.50) == Approx(20 + 10.0 / 60 * 10)); // 21.667
    CHECK(bb::histogram_percentile(h, 0.90) == Approx(20 + 50.0 / 60 * 10)); // 28.333
    CHECK(bb::histogram_percentile(h, 0.99) == Approx(20 + 59.0 / 60 * 10)); // 29.833
    CHECK(bb::histogram_percentile(h, 1.00) == Approx(30));
}

TEST_CASE("percentiles skip empty buckets and are NaN for an empty histogram", "[histogram]") {
    const Histogram gap = histogram_of(10, {{0, 1}, {1, 0}, {5, 1}});
    CHECK(bb::histogram_percentile(gap, 0.5) == Approx(10));  // rank 1: end of bucket 0
    CHECK(bb::histogram_percentile(gap, 0.75) == Approx(55)); // rank 1.5: middle of bucket 5
    CHECK(std::isnan(bb::histogram_percentile(histogram_of(10, {}), 0.5)));
    CHECK(std::isnan(bb::histogram_percentile(gap, 0)));
}

TEST_CASE("the seed 002 histogram's median by hand", "[histogram]") {
    // N = 63871, rank 31935.5; 31392 values lie below 60000 and 15529 in [60000, 70000).
    const Histogram h = bb::rebucket(k_seed_default, 10000);
    CHECK(bb::histogram_percentile(h, 0.5) == Approx(60000 + (31935.5 - 31392) / 15529 * 10000));
    CHECK(bb::histogram_percentile(h, 0.5) == Approx(60350.0).margin(0.1));
}

TEST_CASE("merging adds counts bucket by bucket and refuses other widths", "[histogram]") {
    Histogram into = histogram_of(10, {{0, 1}, {2, 2}});
    bb::merge_into(into, histogram_of(10, {{2, 3}, {4, 1}}));
    CHECK(count_at(into, 0) == 1);
    CHECK(count_at(into, 2) == 5);
    CHECK(count_at(into, 4) == 1);
    CHECK_THROWS(bb::merge_into(into, histogram_of(20, {{0, 1}})));
}
