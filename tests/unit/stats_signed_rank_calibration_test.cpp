// Calibration of the paired-by-round method: Wilcoxon signed-rank with the Walsh-average
// interval. Each round has its own effect (the host's state that round) shared by both boots
// of the pair; pairing takes it out, and the test must still hold α.
#include "stats/signed_rank.h"
#include "stats_calibration.h"

using namespace bb::test;

TEST_CASE("signed-rank paired by round: coverage and false positives", "[.][stats][calibration]") {
    std::mt19937_64 rng(k_calibration_seed + 20);
    std::normal_distribution<double> round_effect(0, 2);
    for (const auto& family : calibration_families()) {
        for (int n : k_calibration_sizes) {
            Tally covered;
            Tally rejected;
            double stated = 0;
            bool answered = false;
            for (int set = 0; set < k_data_sets; ++set) {
                std::vector<double> a(static_cast<size_t>(n));
                std::vector<double> b(a.size());
                for (size_t round = 0; round < a.size(); ++round) {
                    const double shared = round_effect(rng);
                    a[round] = shared + family.draw(rng);
                    b[round] = shared + family.draw(rng);
                }
                const auto result = bb::stats::signed_rank_shift(a, b);
                covered.add(result.interval.contains(0));
                rejected.add(result.p_value <= 0.05);
                stated = result.confidence;
                answered = result.answered();
            }
            print_row(
                "signed-rank paired, Walsh interval", family.name, n,
                fmt::format("coverage {:5.1f} %  stated {:5.1f} %  false positives {:4.1f} %  {}",
                            100 * covered.rate(), 100 * stated, 100 * rejected.rate(),
                            answered ? "answered" : "insufficient (n<6)"));
            CHECK(rejected.rate() <= 0.05 + 0.01);
            CHECK(covered.rate() >= stated - 3 * covered.standard_error(stated));
            CHECK(answered == (n >= 6));
            if (answered) {
                CHECK(stated >= 0.95);
                CHECK(covered.rate() >= 0.95 - 0.015);
            }
        }
    }
}

TEST_CASE("signed-rank with tied and zero differences holds alpha", "[.][stats][calibration]") {
    // Boot times on a 10 ms grid: many pairs tie (zero difference) or share |d|.
    std::mt19937_64 rng(k_calibration_seed + 21);
    std::normal_distribution<double> noise(0, 1);
    for (int n : {8, 15, 30}) {
        Tally rejected;
        for (int set = 0; set < k_data_sets; ++set) {
            std::vector<double> d(static_cast<size_t>(n));
            for (double& value : d) {
                value = std::round(noise(rng)) - std::round(noise(rng));
            }
            rejected.add(bb::stats::signed_rank(d).p_value <= 0.05);
        }
        print_row("signed-rank, ties and zeros", "integer grid", n,
                  fmt::format("false positives {:4.1f} %", 100 * rejected.rate()));
        CHECK(rejected.rate() <= 0.05 + 0.01);
    }
}
