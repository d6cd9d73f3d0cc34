// Holm's adjustment and the Jonckheere–Terpstra trend test: exact values and calibration.
#include "stats/holm.h"
#include "stats/jonckheere.h"
#include "stats/two_sample.h"
#include "stats_calibration.h"

using namespace bb::test;

TEST_CASE("Holm adjusts step-down in input order", "[stats]") {
    const std::vector<double> p{0.01, 0.04, 0.03, 0.005};
    const auto adjusted = bb::stats::holm_adjust(p);
    REQUIRE(adjusted.size() == 4);
    CHECK(adjusted[0] == Approx(0.03));
    CHECK(adjusted[1] == Approx(0.06)); // 0.04·1, raised to the running maximum 0.06
    CHECK(adjusted[2] == Approx(0.06));
    CHECK(adjusted[3] == Approx(0.02));
    const std::vector<double> with_nan{0.01, std::nan(""), 0.2};
    const auto kept = bb::stats::holm_adjust(with_nan);
    CHECK(kept[0] == Approx(0.03)); // the unanswered test still counts in m = 3
    CHECK(std::isnan(kept[1]));
    CHECK(kept[2] == Approx(0.4));
}

TEST_CASE("Holm keeps the family-wise error of six null cells at alpha",
          "[.][stats][calibration]") {
    // Six storm cells, 8 vs 8 boots, no effect anywhere.
    std::mt19937_64 rng(k_calibration_seed + 30);
    const auto families = calibration_families();
    for (const auto& family : families) {
        Tally any_raw;
        Tally any_holm;
        for (int set = 0; set < k_data_sets; ++set) {
            std::vector<double> p;
            for (int cell = 0; cell < 6; ++cell) {
                p.push_back(bb::stats::mann_whitney_test(draw_sample(family, rng, 8),
                                                         draw_sample(family, rng, 8))
                                .p_value);
            }
            const auto adjusted = bb::stats::holm_adjust(p);
            any_raw.add(std::any_of(p.begin(), p.end(), [](double x) { return x <= 0.05; }));
            any_holm.add(
                std::any_of(adjusted.begin(), adjusted.end(), [](double x) { return x <= 0.05; }));
        }
        print_row("6 cells: family-wise false positives", family.name, 8,
                  fmt::format("unadjusted {:4.1f} %  Holm {:4.1f} %", 100 * any_raw.rate(),
                              100 * any_holm.rate()));
        CHECK(any_holm.rate() <= 0.05 + 0.01);
        CHECK(any_raw.rate() > 0.15); // what an uncorrected family does: the bound can fail
    }
}

TEST_CASE("Jonckheere-Terpstra exact values", "[stats]") {
    // A perfect increase over 3 groups of 2: J = 12 is the largest of 90 equally likely orders.
    const std::vector<std::vector<double>> increasing{{1, 2}, {3, 4}, {5, 6}};
    const auto result = bb::stats::jonckheere_terpstra(increasing);
    CHECK(result.estimate == 12);
    CHECK(result.p_value == Approx(2.0 / 90));
    CHECK(result.exact);
    // Two groups: JT is Mann–Whitney.
    const std::vector<double> a{1.5, 3.2, 0.7, 2.2};
    const std::vector<double> b{2.9, 4.1, 3.3, 5.0, 1.1};
    CHECK(bb::stats::jonckheere_terpstra({a, b}).p_value ==
          Approx(bb::stats::mann_whitney_test(a, b).p_value));
    CHECK_FALSE(bb::stats::jonckheere_terpstra({a}).answered());
}

TEST_CASE("Jonckheere-Terpstra false positives", "[.][stats][calibration]") {
    std::mt19937_64 rng(k_calibration_seed + 31);
    for (const auto& family : calibration_families()) {
        for (int n : k_calibration_sizes) {
            Tally rejected;
            for (int set = 0; set < k_data_sets; ++set) {
                const std::vector<std::vector<double>> groups{draw_sample(family, rng, n),
                                                              draw_sample(family, rng, n),
                                                              draw_sample(family, rng, n)};
                rejected.add(bb::stats::jonckheere_terpstra(groups).p_value <= 0.05);
            }
            print_row("Jonckheere-Terpstra, 3 groups", family.name, n,
                      fmt::format("false positives {:4.1f} %", 100 * rejected.rate()));
            CHECK(rejected.rate() <= 0.05 + 0.01);
        }
    }
}

TEST_CASE("Jonckheere-Terpstra with ties: permutation and normal paths",
          "[.][stats][calibration]") {
    std::mt19937_64 rng(k_calibration_seed + 32);
    std::normal_distribution<double> noise(0, 1);
    const auto grid = [&](int n) {
        std::vector<double> values(static_cast<size_t>(n));
        for (double& value : values) {
            value = std::round(noise(rng));
        }
        return values;
    };
    // Permutation p-values cost 10^4 draws each: 1,000 data sets suffice to see the rate.
    bb::stats::PermutationOptions options;
    options.draws = 999;
    Tally permutation;
    for (int set = 0; set < 1'000; ++set) {
        permutation.add(
            bb::stats::jonckheere_terpstra({grid(8), grid(8), grid(8)}, options).p_value <= 0.05);
    }
    Tally normal;
    for (int set = 0; set < k_data_sets; ++set) {
        normal.add(bb::stats::jonckheere_terpstra({grid(70), grid(70), grid(70)}).p_value <= 0.05);
    }
    print_row("Jonckheere-Terpstra ties, permutation", "integer grid", 8,
              fmt::format("false positives {:4.1f} % (1000 data sets)", 100 * permutation.rate()));
    print_row("Jonckheere-Terpstra ties, normal", "integer grid", 70,
              fmt::format("false positives {:4.1f} %", 100 * normal.rate()));
    CHECK(permutation.rate() <= 0.05 + 0.02); // 1,000 sets: SE 0.7 points
    CHECK(normal.rate() <= 0.05 + 0.01);
}
