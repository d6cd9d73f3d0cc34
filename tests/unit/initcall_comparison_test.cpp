#include "report/initcall_comparison.h"
#include "report/initcall_comparison_renderer.h"

#include <catch2/catch.hpp>
#include <random>

using bb::InitcallGroupInput;
using bb::InitcallInputs;
using bb::TracedBoot;

namespace {
// 8 boots of 40 initcalls with independent noise; `extra_us` > 0 adds a late initcall that
// takes that long (the patch under test), `slower_us` slows initcall c7 by that much.
InitcallInputs run_of(std::mt19937_64& rng, long long extra_us, long long slower_us = 0) {
    std::normal_distribution<double> noise(0, 50);
    InitcallGroupInput group;
    for (int b = 0; b < 8; ++b) {
        TracedBoot boot{.boot_id = b + 1, .kernel_init_s = 0};
        double at = 0.05;
        for (int i = 0; i < 40; ++i) {
            const auto us = static_cast<long long>(2000 + i * 100 + std::max(-1000.0, noise(rng)) +
                                                   (i == 7 ? slower_us : 0));
            boot.initcalls.push_back({"c" + std::to_string(i), "", at, us, 0});
            at += static_cast<double>(us) * 1e-6;
        }
        if (extra_us > 0) {
            boot.initcalls.push_back({"late_delay", "", at, extra_us, 0});
            at += static_cast<double>(extra_us) * 1e-6;
        }
        boot.kernel_init_s = at + 0.1;
        group.traced.push_back(std::move(boot));
    }
    group.used = 8;
    return {.axes = {}, .groups = {std::move(group)}}; // one group, no axis
}
} // namespace

TEST_CASE("compare --initcalls finds the initcall a patch adds, and only it", "[initcalls]") {
    std::mt19937_64 rng(50);
    const auto a = run_of(rng, 0);
    const auto b = run_of(rng, 1'000'000);
    const auto comparison = bb::compare_initcalls(a, b);
    REQUIRE(comparison.groups.size() == 1);
    const auto& group = comparison.groups[0];
    CHECK(group.tested == 41);
    REQUIRE(group.moved == 1);
    const auto& top = group.shifts.front();
    CHECK(top.name == "late_delay");
    CHECK(top.only_in == 'B');
    CHECK(top.moved);
    CHECK(top.comparison.difference == Approx(1.0));
    CHECK(group.moved_sum == Approx(1.0));
    CHECK(group.kernel_init.difference == Approx(1.0).margin(0.01));
    const std::string text = bb::render_initcall_comparison(comparison, bb::ReportFormat::Text, 3);
    CHECK(text.find("late_delay (only in B)") != std::string::npos);
    CHECK(text.find("moved at FDR 5 %: 1 initcall, +1000.000 ms in sum") != std::string::npos);
}

TEST_CASE("compare --initcalls: a slowed initcall moves, equal runs move nothing", "[initcalls]") {
    std::mt19937_64 rng(51);
    const auto same = bb::compare_initcalls(run_of(rng, 0), run_of(rng, 0));
    CHECK(same.groups[0].moved == 0);
    const auto slowed = bb::compare_initcalls(run_of(rng, 0), run_of(rng, 0, 5000));
    REQUIRE(slowed.groups[0].moved == 1);
    CHECK(slowed.groups[0].shifts.front().name == "c7");
    CHECK(slowed.groups[0].shifts.front().only_in == 0);
    CHECK(slowed.groups[0].shifts.front().comparison.difference == Approx(0.005).margin(0.0002));
}

TEST_CASE("compare --initcalls leaves out groups traced in one run only", "[initcalls]") {
    std::mt19937_64 rng(52);
    auto a = run_of(rng, 0);
    auto b = run_of(rng, 0);
    b.groups[0].traced.clear();
    const auto comparison = bb::compare_initcalls(a, b);
    CHECK(comparison.groups.empty());
    CHECK(comparison.only_one_run == 1);
}
