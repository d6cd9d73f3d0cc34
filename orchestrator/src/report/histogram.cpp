#include "report/histogram.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

namespace bb {

double Histogram::total() const {
    double sum = 0;
    for (const auto& [index, count] : counts) {
        sum += count;
    }
    return sum;
}

Histogram rebucket(std::span<const StoredBucket> buckets, double width) {
    if (!(width > 0) || !std::isfinite(width)) {
        throw std::invalid_argument("rebucket: the bucket width must be a positive number");
    }
    Histogram histogram;
    histogram.width = width;
    for (const StoredBucket& bucket : buckets) {
        if (bucket.count <= 0 || !std::isfinite(bucket.lo) || !std::isfinite(bucket.hi)) {
            continue;
        }
        const auto first = static_cast<long long>(std::floor(bucket.lo / width));
        const double first_upper = static_cast<double>(first + 1) * width;
        const auto count = static_cast<double>(bucket.count);
        if (bucket.hi <= first_upper) {
            histogram.counts[first] += count;
            continue;
        }
        // Straddles one boundary or more: share the count by overlap with each bucket.
        ++histogram.split_buckets;
        const double span = bucket.hi - bucket.lo;
        const auto last = static_cast<long long>(std::floor(bucket.hi / width));
        for (long long index = first; index <= last; ++index) {
            const double lower = std::max(bucket.lo, static_cast<double>(index) * width);
            const double upper = std::min(bucket.hi, static_cast<double>(index + 1) * width);
            if (upper > lower) {
                histogram.counts[index] += count * (upper - lower) / span;
            }
        }
    }
    return histogram;
}

void merge_into(Histogram& into, const Histogram& from) {
    if (into.width == 0) {
        into.width = from.width;
    }
    if (into.width != from.width) {
        throw std::invalid_argument("merge_into: histograms of different bucket widths");
    }
    for (const auto& [index, count] : from.counts) {
        into.counts[index] += count;
    }
    into.split_buckets += from.split_buckets;
}

double histogram_percentile(const Histogram& histogram, double p) {
    const double total = histogram.total();
    if (!(total > 0) || !(p > 0 && p <= 1)) {
        return std::numeric_limits<double>::quiet_NaN();
    }
    const double rank = p * total;
    double below = 0;
    for (const auto& [index, count] : histogram.counts) {
        if (count > 0 && below + count >= rank) {
            return histogram.lower_edge(index) + (rank - below) / count * histogram.width;
        }
        below += count;
    }
    // Rounding can leave rank a hair above the sum: the answer is the top edge.
    return histogram.lower_edge(histogram.counts.rbegin()->first + 1);
}

double stored_bucket_step(std::span<const StoredBucket> buckets) {
    std::vector<double> lows;
    double single_width = 0;
    for (const StoredBucket& bucket : buckets) {
        if (std::isfinite(bucket.lo) && std::isfinite(bucket.hi)) {
            lows.push_back(bucket.lo);
            single_width = std::max(single_width, bucket.hi - bucket.lo);
        }
    }
    std::sort(lows.begin(), lows.end());
    lows.erase(std::unique(lows.begin(), lows.end()), lows.end());
    if (lows.size() < 2) {
        return single_width;
    }
    double step = std::numeric_limits<double>::infinity();
    for (size_t i = 1; i < lows.size(); ++i) {
        step = std::min(step, lows[i] - lows[i - 1]);
    }
    return step;
}

} // namespace bb
