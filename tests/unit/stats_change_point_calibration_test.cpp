// Calibration of the change-point scan (stats/change_points.h, docs/nightly.md "History and
// change points"): A/A histories with a night random effect must be flagged at most α of the
// time; the same scan with boots as the units (the naive test) must alarm far more, which shows
// that this test can fail; a +5 % shift must be found at its night.
#include "stats/change_points.h"
#include "stats/night_gate.h"
#include "stats/sorted.h"
#include "stats/two_sample.h"
#include "stats_calibration.h"

#include <chrono>

namespace {

constexpr double k_alpha = 0.05;

// log(boot time) = log(100 s) + shift + night effect + boot noise; the night effect is shared
// by the night's boots (the host's state that night), the noise is each boot's own.
struct HistoryModel {
    std::string name;
    std::function<double(std::mt19937_64&)> night_effect;
    std::function<double(std::mt19937_64&)> boot_noise;
};

std::vector<HistoryModel> history_models() {
    const auto normal = [](double sd) {
        return [sd](std::mt19937_64& rng) { return std::normal_distribution<double>(0, sd)(rng); };
    };
    const auto t3 = [](double scale) {
        return [scale](std::mt19937_64& rng) {
            return scale * std::student_t_distribution<double>(3)(rng);
        };
    };
    return {{"normal 1 %", normal(0.01), normal(0.01)}, {"t3 3 %", t3(0.03), t3(0.01)}};
}

struct History {
    std::vector<double> night_medians;
    std::vector<double> boots; // all boots in the order they ran
};

History simulate_history(const HistoryModel& model, std::mt19937_64& rng, int nights, int boots,
                         int shift_night = 0, double shift = 0) {
    History history;
    std::vector<double> night(static_cast<size_t>(boots));
    for (int n = 0; n < nights; ++n) {
        const double level = std::log(100.0) + (shift_night > 0 && n >= shift_night ? shift : 0) +
                             model.night_effect(rng);
        for (double& boot : night) {
            boot = std::exp(level + model.boot_noise(rng));
        }
        history.boots.insert(history.boots.end(), night.begin(), night.end());
        history.night_medians.push_back(bb::stats::sorted_median_of(night));
    }
    return history;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

} // namespace

TEST_CASE("change points: A/A histories are flagged at most alpha, boot-level tests are not",
          "[.][stats][calibration]") {
    constexpr int k_nights = 20;
    constexpr int k_boots = 5;
    constexpr int k_naive_histories = 1'000; // the negative control: its rate is far from 5 %
    std::mt19937_64 rng(bb::test::k_calibration_seed + 40);
    for (const auto& model : history_models()) {
        const auto start = std::chrono::steady_clock::now();
        bb::test::Tally any_night;
        long flagged_nights = 0;
        bb::test::Tally naive_any;
        for (int set = 0; set < bb::test::k_data_sets; ++set) {
            const auto history = simulate_history(model, rng, k_nights, k_boots);
            const auto found = bb::stats::change_points(history.night_medians);
            flagged_nights += static_cast<long>(found.points.size());
            any_night.add(!found.points.empty());
            if (set < k_naive_histories) {
                naive_any.add(!bb::stats::change_points(history.boots).points.empty());
            }
        }
        const double night_rate = static_cast<double>(flagged_nights) /
                                  (static_cast<double>(bb::test::k_data_sets) * k_nights);
        bb::test::print_row(
            "change points A/A, 20 nights x 5 boots", model.name, k_nights,
            fmt::format("nights flagged {:.2f} %  histories {:.2f} %  naive (boots as units, "
                        "{} histories) {:.1f} %  ({:.1f} s)",
                        100 * night_rate, 100 * any_night.rate(), k_naive_histories,
                        100 * naive_any.rate(), seconds_since(start)));
        CHECK(night_rate <= 0.05);
        // α plus three Monte Carlo standard errors (0.22 points at 10,000 histories).
        CHECK(any_night.rate() <= k_alpha + 3 * any_night.standard_error(k_alpha));
        CHECK(naive_any.rate() > 0.20); // boots as independent units: the bound can fail
    }
}

TEST_CASE("change points: a shift is found at its night", "[.][stats][calibration]") {
    struct Case {
        int nights;
        int shift_night;
        double shift;    // on the log scale
        double required; // the share of histories with a point at exactly shift_night
    };
    // +5 % at night 10 of 20 (asserted), +3 % at night 6 of 12 (measured, quoted in the docs).
    const std::vector<Case> cases{{20, 10, std::log(1.05), 0.90}, {12, 6, std::log(1.03), 0.0}};
    std::mt19937_64 rng(bb::test::k_calibration_seed + 41);
    const auto model = history_models()[0];
    for (const auto& c : cases) {
        const auto start = std::chrono::steady_clock::now();
        bb::test::Tally exact;
        bb::test::Tally any;
        for (int set = 0; set < bb::test::k_data_sets; ++set) {
            const auto history = simulate_history(model, rng, c.nights, 5, c.shift_night, c.shift);
            const auto found = bb::stats::change_points(history.night_medians);
            exact.add(
                std::any_of(found.points.begin(), found.points.end(),
                            [&c](const auto& point) { return point.night == c.shift_night; }));
            any.add(!found.points.empty());
        }
        bb::test::print_row(
            fmt::format("change points power, +{:.0f} % at night {}", 100 * std::expm1(c.shift),
                        c.shift_night),
            model.name, c.nights,
            fmt::format("found at that night {:.2f} %  any point {:.2f} %  ({:.1f} s)",
                        100 * exact.rate(), 100 * any.rate(), seconds_since(start)));
        CHECK(exact.rate() >= c.required);
    }
}

// The nightly gate (stats/night_gate.h): tonight against the 10 nights before it, on A/A
// histories of 11 nights x 5 boots. Flagged at most α (two-sided), while the boot-level test
// `nightly` used alone before (tonight's boots against the last night's, exact Mann-Whitney)
// flags many more — the negative control that shows this test can fail.
TEST_CASE("night gate: an A/A night is flagged at most alpha, a boot-level test far more",
          "[.][stats][calibration]") {
    constexpr int k_earlier = 10;
    std::mt19937_64 rng(bb::test::k_calibration_seed + 42);
    for (const auto& model : history_models()) {
        const auto start = std::chrono::steady_clock::now();
        bb::test::Tally flagged;
        bb::test::Tally slower;
        bb::test::Tally boot_level;
        for (int set = 0; set < bb::test::k_data_sets; ++set) {
            const auto history = simulate_history(model, rng, k_earlier + 1, 5);
            const std::vector<double> earlier(history.night_medians.begin(),
                                              history.night_medians.end() - 1);
            const auto gate = bb::stats::night_gate(earlier, history.night_medians.back());
            REQUIRE(gate.answered());
            flagged.add(gate.p_value <= k_alpha);
            slower.add(gate.p_value <= k_alpha && gate.ratio > 1);
            const std::vector<double> last(history.boots.end() - 10, history.boots.end() - 5);
            const std::vector<double> tonight(history.boots.end() - 5, history.boots.end());
            boot_level.add(bb::stats::hodges_lehmann_shift(last, tonight).p_value <= k_alpha);
        }
        bb::test::print_row("night gate A/A, tonight vs 10 nights x 5 boots", model.name, k_earlier,
                            fmt::format("flagged {:.2f} %  slower {:.2f} %  boot-level vs last "
                                        "night {:.1f} %  ({:.1f} s)",
                                        100 * flagged.rate(), 100 * slower.rate(),
                                        100 * boot_level.rate(), seconds_since(start)));
        // What wakes someone up (exit 1) is "slower": at most α in both models. Flagged either
        // way, the normal-theory interval holds α for normal nights; heavy-tailed (t3) nights
        // exceed it (measured 6.9 %), which docs/nightly.md states.
        CHECK(slower.rate() <= k_alpha);
        if (model.name.rfind("normal", 0) == 0) {
            CHECK(flagged.rate() <= k_alpha + 3 * flagged.standard_error(k_alpha));
        }
        CHECK(boot_level.rate() > 0.20);
    }
}

TEST_CASE("night gate: power against a one-night step", "[.][stats][calibration]") {
    // Measured and quoted in docs/nightly.md; asserted only where it must hold: a step of
    // 4 night SDs (+4 % with the 1 % model's night and boot SDs) is flagged most of the time.
    std::mt19937_64 rng(bb::test::k_calibration_seed + 43);
    const auto model = history_models()[0];
    for (const double step : {1.02, 1.04}) {
        bb::test::Tally slower;
        for (int set = 0; set < bb::test::k_data_sets; ++set) {
            const auto history = simulate_history(model, rng, 11, 5, 10, std::log(step));
            const std::vector<double> earlier(history.night_medians.begin(),
                                              history.night_medians.end() - 1);
            const auto gate = bb::stats::night_gate(earlier, history.night_medians.back());
            slower.add(gate.p_value <= k_alpha && gate.ratio > 1);
        }
        bb::test::print_row(fmt::format("night gate power, +{:.0f} % tonight", 100 * (step - 1)),
                            model.name, 10, fmt::format("slower {:.2f} %", 100 * slower.rate()));
        if (step > 1.03) {
            CHECK(slower.rate() >= 0.80);
        }
    }
}
