// Calibration of `compare --initcalls`' multiplicity control: per initcall, the Hodges–Lehmann
// shift's Mann–Whitney p between two runs' boots, Benjamini–Hochberg over the initcalls. A
// boot's initcalls share its noise (a slow boot is slow everywhere): the simulation draws a
// per-boot factor beside each initcall's own noise, so the tests are positively dependent, the
// case BH is proven for. The false discovery rate must stay at or below α.
#include "stats/benjamini_hochberg.h"
#include "stats/two_sample.h"
#include "stats_calibration.h"

#include <algorithm>

using namespace bb::test;

namespace {
constexpr int k_initcalls = 200;
constexpr int k_moved = 10;
constexpr int k_fdr_data_sets = 400;

struct Run {
    std::vector<std::vector<double>> per_initcall; // [initcall][boot]
};

Run draw_run(const Family& family, std::mt19937_64& rng, int boots, double shift) {
    Run run;
    run.per_initcall.assign(k_initcalls, std::vector<double>(static_cast<size_t>(boots)));
    std::normal_distribution<double> boot_factor(0, 0.5);
    for (int b = 0; b < boots; ++b) {
        const double shared = boot_factor(rng);
        for (int i = 0; i < k_initcalls; ++i) {
            run.per_initcall[static_cast<size_t>(i)][static_cast<size_t>(b)] =
                family.draw(rng) + shared + (i < k_moved ? shift : 0);
        }
    }
    return run;
}

// The mean of per-data-set proportions, with its standard error from their spread.
struct Mean {
    double sum = 0;
    double sum_squares = 0;
    long n = 0;
    void add(double x) {
        sum += x;
        sum_squares += x * x;
        ++n;
    }
    double value() const { return sum / static_cast<double>(n); }
    double standard_error() const {
        const double m = value();
        const double variance = (sum_squares / static_cast<double>(n) - m * m) *
                                static_cast<double>(n) / static_cast<double>(n - 1);
        return std::sqrt(std::max(variance, 0.0) / static_cast<double>(n));
    }
};

struct Rates {
    Mean false_discovery; // per data set: the share of findings that are null initcalls
    Tally found_moved;    // per moved initcall: found
};

Rates simulate(const Family& family, std::mt19937_64& rng, int boots, double shift) {
    Rates rates;
    for (int set = 0; set < k_fdr_data_sets; ++set) {
        const Run a = draw_run(family, rng, boots, 0);
        const Run b = draw_run(family, rng, boots, shift);
        std::vector<double> p;
        for (int i = 0; i < k_initcalls; ++i) {
            p.push_back(bb::stats::hodges_lehmann_shift(a.per_initcall[static_cast<size_t>(i)],
                                                        b.per_initcall[static_cast<size_t>(i)])
                            .p_value);
        }
        const auto q = bb::stats::benjamini_hochberg_adjust(p);
        int found = 0;
        int false_found = 0;
        for (int i = 0; i < k_initcalls; ++i) {
            const bool finding = q[static_cast<size_t>(i)] <= 0.05;
            found += finding ? 1 : 0;
            false_found += finding && i >= k_moved ? 1 : 0;
            if (i < k_moved) {
                rates.found_moved.add(finding);
            }
        }
        // The false discovery proportion of this data set (0 when nothing was found); its mean
        // over data sets is the FDR.
        rates.false_discovery.add(found == 0 ? 0.0 : static_cast<double>(false_found) / found);
    }
    return rates;
}
} // namespace

TEST_CASE("Benjamini-Hochberg over per-initcall shifts keeps the false discovery rate",
          "[.][stats][calibration]") {
    std::mt19937_64 rng(k_calibration_seed + 50);
    for (const auto& family : calibration_families()) {
        for (int boots : {8, 15}) {
            const Rates rates = simulate(family, rng, boots, 3.0);
            print_row("BH over 200 initcalls, 10 moved by 3 (boots per run)", family.name, boots,
                      fmt::format("FDR {:5.2f} %  moved found {:5.1f} %",
                                  100 * rates.false_discovery.value(),
                                  100 * rates.found_moved.rate()));
            CHECK(rates.false_discovery.value() <=
                  0.05 + 3 * rates.false_discovery.standard_error());
            CHECK(rates.found_moved.rate() > 0.3); // it finds something: the test can fail
        }
    }
}
