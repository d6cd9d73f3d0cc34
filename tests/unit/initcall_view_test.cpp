#include "report/initcall_renderer.h"
#include "report/initcall_view.h"

#include <catch2/catch.hpp>

using bb::InitcallGroupInput;
using bb::InitcallRecord;
using bb::TracedBoot;

namespace {
// A boot whose kernel reached /init at `init_s` after running `calls` (name, µs) back to back
// from 0.1 s, and a module's init after /init.
TracedBoot boot(long long id, double init_s,
                const std::vector<std::pair<std::string, long long>>& calls) {
    TracedBoot traced{.boot_id = id, .kernel_init_s = init_s};
    double at = 0.1;
    for (const auto& [name, us] : calls) {
        traced.initcalls.push_back({name, "", at, us, 0});
        at += static_cast<double>(us) * 1e-6;
    }
    traced.initcalls.push_back({"mod_init", "mod", init_s + 0.05, 9000, 0});
    return traced;
}
} // namespace

TEST_CASE("the initcall view ranks initcalls by their median over boots", "[initcalls]") {
    InitcallGroupInput input{.used = 7, .untraced = 1, .wrapped = 1};
    input.traced = {boot(1, 0.40, {{"a", 1000}, {"b", 50000}, {"c", 20000}}),
                    boot(2, 0.42, {{"a", 3000}, {"b", 70000}, {"c", 10000}}),
                    boot(3, 0.44, {{"a", 2000}, {"b", 60000}}),
                    boot(4, 0.41, {{"a", 2000}, {"b", 40000}, {"c", 30000}}),
                    boot(5, 0.43, {{"a", 2000}, {"b", 80000}, {"c", 20000}})};
    const auto view = bb::build_initcall_view({"variant"}, {input}, 3);
    REQUIRE(view.groups.size() == 1);
    const auto& group = view.groups[0];
    CHECK(group.traced == 5);
    CHECK(group.used == 7);
    CHECK(group.distinct == 4);
    REQUIRE(group.rows.size() == 3); // --top 3 of 4
    CHECK(group.rows[0].name == "b");
    CHECK(group.rows[0].duration.median == Approx(0.060));
    CHECK(group.rows[0].duration.n == 5);
    CHECK(group.rows[1].name == "c"); // 20 ms over the 4 boots that ran it
    CHECK(group.rows[1].duration.n == 4);
    CHECK(group.rows[2].name == "mod_init"); // after /init: ranked, not in the kernel's sum
    CHECK(group.kernel_init.median == Approx(0.42));
    // Per boot, the built-in initcalls' sum: 71, 83, 62, 72, 102 ms → median 72 ms.
    CHECK(group.total.median == Approx(0.072));
    CHECK(group.outside.median == Approx(0.42 - 0.083).margin(0.03));
    CHECK(group.rows[0].share == Approx(0.060 / 0.42));
    const std::string text = bb::render_initcall_view(view, bb::ReportFormat::Text);
    CHECK(text.find("2 used boots left out: 1 not traced, 1 with a wrapped ring buffer") !=
          std::string::npos);
    const std::string csv = bb::render_initcall_view(view, bb::ReportFormat::Csv);
    CHECK(csv.find("variant=") == std::string::npos); // no key: the group label is empty
    CHECK(csv.find(",initcall,b,,5,0.06,") != std::string::npos);
}

TEST_CASE("equal medians rank by name, so the order is stable", "[initcalls]") {
    InitcallGroupInput input;
    input.traced = {boot(1, 0.3, {{"z", 1000}, {"y", 1000}})};
    const auto view = bb::build_initcall_view({}, {input}, 10);
    CHECK(view.groups[0].rows[1].name == "y");
    CHECK(view.groups[0].rows[2].name == "z");
}
