#pragma once
// Latency histograms as the guest prints them (BOOTBENCH-HIST name lo hi count), merged and
// re-bucketed to one width, and percentiles read from them. Pure; knows no database or format.
#include <map>
#include <span>

namespace bb {

// One stored bucket: `count` values between the edges `lo` and `hi`. Kernel-style inclusive
// integer ranges ("0 - 9999") and half-open ones ("0 10000") are both accepted.
struct StoredBucket {
    double lo = 0;
    double hi = 0;
    long long count = 0;
};

// Buckets [k·width, (k+1)·width) keyed by k. Sparse: a histogram with a far outlier costs one
// entry, not millions of empty ones. Counts are doubles because a stored bucket that straddles
// a boundary of the requested width is split between the buckets it overlaps.
struct Histogram {
    double width = 0;
    std::map<long long, double> counts;
    int split_buckets = 0; // stored buckets that straddled a boundary and were split

    double total() const;
    double lower_edge(long long index) const { return static_cast<double>(index) * width; }
};

// Re-buckets stored buckets to `width` (> 0). A stored bucket goes whole to the bucket holding
// its `lo` unless it reaches past that bucket's upper edge (hi > upper edge); then its count is
// split in proportion to the overlap of [lo, hi] with each bucket (values assumed uniform).
// Buckets with a count <= 0 are ignored.
Histogram rebucket(std::span<const StoredBucket> buckets, double width);

// Adds `from` into `into` (same width).
void merge_into(Histogram& into, const Histogram& from);

// The p-quantile (0 < p <= 1) by linear interpolation inside the bucket that holds rank p·N
// (N the total count): the first bucket whose cumulative count reaches p·N, at
// lower edge + (p·N − count below it) / its count · width, values assumed spread uniformly
// over the bucket (as Prometheus' histogram_quantile does). NaN for an empty histogram.
double histogram_percentile(const Histogram& histogram, double p);

// The default re-bucketing width: the smallest gap between the `lo`s of stored buckets, so that
// "0 9999", "10000 19999", … (inclusive) and "0 10000", "10000 20000", … (half-open) both give
// 10000 and nothing is split; with a single distinct `lo`, that bucket's hi − lo. 0 when there
// is nothing to go by.
double stored_bucket_step(std::span<const StoredBucket> buckets);

} // namespace bb
