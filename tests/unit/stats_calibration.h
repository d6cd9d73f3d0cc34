#pragma once
// Shared by the calibration tests ([stats]): the simulated families, the sample sizes, a
// coverage / false-positive tally with its Monte Carlo standard error, and the printed table
// (`ctest -L stats --verbose` shows it; docs/reporting.md quotes it).
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <fmt/format.h>
#include <functional>
#include <iostream>
#include <random>
#include <string>
#include <vector>

namespace bb::test {

constexpr int k_data_sets = 10'000;
constexpr std::uint64_t k_calibration_seed = 15'2026;
inline const std::vector<int> k_calibration_sizes{3, 5, 8, 15, 30};

// A distribution to draw boots from and the median it has (what a median interval must cover).
struct Family {
    std::string name;
    std::function<double(std::mt19937_64&)> draw;
    double median = 0;
};

inline std::vector<Family> calibration_families() {
    return {
        {"normal", [](std::mt19937_64& rng) { return std::normal_distribution<double>(0, 1)(rng); },
         0.0},
        {"log-normal",
         [](std::mt19937_64& rng) { return std::lognormal_distribution<double>(0, 0.5)(rng); },
         1.0},
        {"t3 (heavy)",
         [](std::mt19937_64& rng) { return std::student_t_distribution<double>(3)(rng); }, 0.0},
    };
}

inline std::vector<double> draw_sample(const Family& family, std::mt19937_64& rng, int n,
                                       double scale = 1) {
    std::vector<double> values(static_cast<size_t>(n));
    for (double& value : values) {
        value = family.draw(rng) * scale;
    }
    return values;
}

// Counts hits (an interval that covered, a test that rejected) over data sets.
struct Tally {
    long hits = 0;
    long trials = 0;

    void add(bool hit) {
        hits += hit ? 1 : 0;
        ++trials;
    }
    double rate() const { return static_cast<double>(hits) / static_cast<double>(trials); }
    // The Monte Carlo standard error of rate() around a true rate p.
    double standard_error(double p) const {
        return std::sqrt(p * (1 - p) / static_cast<double>(trials));
    }
};

// One printed line per cell, flushed at once so a failing REQUIRE still leaves the table.
inline void print_row(const std::string& table, const std::string& family, int n,
                      const std::string& figures) {
    std::cout << fmt::format("[stats] {:<38} {:<11} n={:<3} {}\n", table, family, n, figures)
              << std::flush;
}

} // namespace bb::test
