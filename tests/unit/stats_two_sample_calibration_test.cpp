// Calibration of the Hodges–Lehmann shift with its Mann–Whitney interval and p-value (two
// independent groups), on the shift scale, on the log scale (ratios) and with ties.
#include "stats/two_sample.h"
#include "stats_calibration.h"

using namespace bb::test;

namespace {

struct Cell {
    Tally covered;
    Tally rejected;
    double stated = 0;
    bool answered = false;
};

// Both groups from one family: the true shift is 0 (ratio 1), so the interval must cover it
// and the test must reject at most α of the time.
Cell run_null(const Family& family, std::mt19937_64& rng, int n_a, int n_b, bool ratio) {
    Cell cell;
    for (int set = 0; set < k_data_sets; ++set) {
        const auto a = draw_sample(family, rng, n_a);
        const auto b = draw_sample(family, rng, n_b);
        const auto result =
            ratio ? bb::stats::hodges_lehmann_ratio(a, b) : bb::stats::hodges_lehmann_shift(a, b);
        cell.covered.add(result.interval.contains(ratio ? 1.0 : 0.0));
        cell.rejected.add(result.p_value <= 0.05);
        cell.stated = result.confidence;
        cell.answered = result.answered();
    }
    return cell;
}

void check_cell(const std::string& table, const std::string& family, int n, const Cell& cell) {
    print_row(table, family, n,
              fmt::format("coverage {:5.1f} %  stated {:5.1f} %  false positives {:4.1f} %  {}",
                          100 * cell.covered.rate(), 100 * cell.stated, 100 * cell.rejected.rate(),
                          cell.answered ? "answered" : "insufficient"));
    CHECK(cell.rejected.rate() <= 0.05 + 0.01);
    CHECK(cell.covered.rate() >= cell.stated - 3 * cell.covered.standard_error(cell.stated));
    if (cell.answered) {
        CHECK(cell.stated >= 0.95);
        CHECK(cell.covered.rate() >= 0.95 - 0.015);
    }
}

} // namespace

TEST_CASE("Hodges-Lehmann shift: coverage and false positives", "[.][stats][calibration]") {
    std::mt19937_64 rng(k_calibration_seed + 10);
    for (const auto& family : calibration_families()) {
        for (int n : k_calibration_sizes) {
            const Cell cell = run_null(family, rng, n, n, false);
            check_cell("HL shift, Mann-Whitney (n per group)", family.name, n, cell);
            CHECK(cell.answered == (n >= 4)); // 3 vs 3 cannot reach 95 %
        }
    }
}

TEST_CASE("Hodges-Lehmann ratio on the log scale covers a true ratio", "[.][stats][calibration]") {
    // Log-normal boots, B 10 % slower: the ratio interval must cover 1.10.
    std::mt19937_64 rng(k_calibration_seed + 11);
    const Family family = calibration_families()[1];
    for (int n : k_calibration_sizes) {
        Tally covered;
        double stated = 0;
        for (int set = 0; set < k_data_sets; ++set) {
            const auto a = draw_sample(family, rng, n);
            const auto b = draw_sample(family, rng, n, 1.10);
            const auto result = bb::stats::hodges_lehmann_ratio(a, b);
            covered.add(result.interval.contains(1.10));
            stated = result.confidence;
        }
        print_row("HL ratio B/A = 1.10 (log scale)", family.name, n,
                  fmt::format("coverage {:5.1f} %  stated {:5.1f} %", 100 * covered.rate(),
                              100 * stated));
        CHECK(covered.rate() >= stated - 3 * covered.standard_error(stated));
        if (n >= 4) {
            CHECK(covered.rate() >= 0.95 - 0.015);
        }
    }
}

TEST_CASE("Hodges-Lehmann with ties and with the normal approximation", "[.][stats][calibration]") {
    std::mt19937_64 rng(k_calibration_seed + 12);
    // Normal values rounded to 0.5 σ: most values tie. The p is exact over the mid-ranks, the
    // closed interval conservative.
    const Family rounded{"normal, 0.5 grid",
                         [](std::mt19937_64& r) {
                             return std::round(2 * std::normal_distribution<double>(0, 1)(r)) / 2;
                         },
                         0.0};
    for (int n : {5, 8, 15}) {
        check_cell("HL shift with ties", rounded.name, n, run_null(rounded, rng, n, n, false));
    }
    // 60 vs 60 is past k_exact_pairs: normal approximation, nominal level.
    const Family normal = calibration_families()[0];
    const Cell large = run_null(normal, rng, 60, 60, false);
    check_cell("HL shift, normal approximation", normal.name, 60, large);
    // Unequal groups (5 vs 12) through the exact path.
    check_cell("HL shift, 5 vs 12", normal.name, 5, run_null(normal, rng, 5, 12, false));
}
