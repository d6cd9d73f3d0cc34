// The per-item geomean endpoint with shared boot noise: every item of one boot shares that
// boot's factor (σ 0.06–0.10 on the log scale). Per-boot geomeans compared across boots must
// hold α; resampling items (the old method, reimplemented here only as the negative case)
// does not.
#include "stats/geomean_endpoint.h"
#include "stats_calibration.h"

#include <numeric>

using namespace bb::test;

namespace {

constexpr int k_items = 15;

// One boot: a shared factor exp(N(0, boot_sigma)) times each item's own exp(N(0, 0.05)).
std::vector<double> draw_boot(std::mt19937_64& rng, double boot_sigma) {
    const double shared = std::normal_distribution<double>(0, boot_sigma)(rng);
    std::normal_distribution<double> own(0, 0.05);
    std::vector<double> items(k_items);
    for (size_t item = 0; item < items.size(); ++item) {
        items[item] = (1.0 + 0.1 * static_cast<double>(item)) * std::exp(shared + own(rng));
    }
    return items;
}

std::vector<std::vector<double>> draw_boots(std::mt19937_64& rng, int n, double boot_sigma) {
    std::vector<std::vector<double>> boots;
    for (int i = 0; i < n; ++i) {
        boots.push_back(draw_boot(rng, boot_sigma));
    }
    return boots;
}

// The pre-issue-15 endpoint, in short: per item the ratio of medians, then a percentile
// bootstrap over the items of the geomean of those ratios; "significant" when it excludes 1.
bool item_resampling_significant(const std::vector<std::vector<double>>& a,
                                 const std::vector<std::vector<double>>& b, std::mt19937_64& rng) {
    std::vector<double> log_ratios;
    for (size_t item = 0; item < k_items; ++item) {
        std::vector<double> column_a;
        std::vector<double> column_b;
        for (const auto& boot : a) {
            column_a.push_back(boot[item]);
        }
        for (const auto& boot : b) {
            column_b.push_back(boot[item]);
        }
        std::sort(column_a.begin(), column_a.end());
        std::sort(column_b.begin(), column_b.end());
        log_ratios.push_back(
            std::log(column_b[column_b.size() / 2] / column_a[column_a.size() / 2]));
    }
    std::uniform_int_distribution<size_t> pick(0, k_items - 1);
    std::vector<double> means(500);
    for (double& mean : means) {
        mean = 0;
        for (size_t i = 0; i < k_items; ++i) {
            mean += log_ratios[pick(rng)] / k_items;
        }
    }
    std::sort(means.begin(), means.end());
    return means[12] > 0 || means[487] < 0;
}

} // namespace

TEST_CASE("per-boot geomean endpoint holds alpha under shared boot noise",
          "[.][stats][calibration]") {
    std::mt19937_64 rng(k_calibration_seed + 50);
    for (double boot_sigma : {0.06, 0.10}) {
        for (int n : {5, 8, 15, 30}) {
            Tally independent;
            Tally paired;
            Tally covered;
            for (int set = 0; set < k_data_sets; ++set) {
                const auto a = draw_boots(rng, n, boot_sigma);
                const auto b = draw_boots(rng, n, boot_sigma);
                const auto result = bb::stats::compare_geomean_endpoint(a, b);
                independent.add(result.p_value <= 0.05);
                covered.add(result.interval.contains(1.0));
                paired.add(bb::stats::compare_geomean_endpoint_paired(a, b).p_value <= 0.05);
            }
            print_row(
                fmt::format("per-boot geomean, boot sigma {:.2f}", boot_sigma), "15 items", n,
                fmt::format("false positives {:4.1f} % (paired {:4.1f} %)  coverage {:5.1f} %",
                            100 * independent.rate(), 100 * paired.rate(), 100 * covered.rate()));
            CHECK(independent.rate() <= 0.05 + 0.01);
            CHECK(paired.rate() <= 0.05 + 0.01);
            CHECK(covered.rate() >= 0.95 - 0.015);
        }
    }
}

TEST_CASE("negative case: resampling items calls shared boot noise significant",
          "[.][stats][calibration]") {
    std::mt19937_64 rng(k_calibration_seed + 51);
    for (double boot_sigma : {0.06, 0.10}) {
        Tally rejected;
        for (int set = 0; set < 2'000; ++set) {
            rejected.add(item_resampling_significant(draw_boots(rng, 5, boot_sigma),
                                                     draw_boots(rng, 5, boot_sigma), rng));
        }
        print_row(fmt::format("OLD item-resampling geomean, sigma {:.2f}", boot_sigma), "15 items",
                  5,
                  fmt::format("false positives {:4.1f} % (2000 data sets; fails)",
                              100 * rejected.rate()));
        CHECK(rejected.rate() > 0.05 + 0.01);
    }
}

TEST_CASE("boot geomean of items", "[stats]") {
    CHECK(bb::stats::boot_geomean(std::vector<double>{1, 4}) == Approx(2));
    CHECK(std::isnan(bb::stats::boot_geomean(std::vector<double>{1, 0})));
    CHECK(std::isnan(bb::stats::boot_geomean(std::vector<double>{})));
    CHECK_THROWS(bb::stats::boot_geomeans({{1, 2}, {1}}));
}
