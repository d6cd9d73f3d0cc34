// The phases of a boot (report/boot_phases.h), their grouping under the used-sample rule
// (report/phase_samples.h) and the attribution of a shift to them (report/phase_attribution.h).
#include "report/boot_phases.h"
#include "report/phase_attribution.h"
#include "report/phase_samples.h"
#include "report/phase_view.h"
#include "test_store.h"

#include <catch2/catch.hpp>
#include <optional>
#include <string>
#include <vector>

using bb::BootMoment;
using bb::BootMoments;
using bb::PhaseBoot;

namespace {

constexpr size_t k_firmware = 0;
constexpr size_t k_pre_banner = 1;
constexpr size_t k_kernel = 2;
constexpr size_t k_init = 3;

BootMoments moments(std::optional<double> first_byte, std::optional<double> banner,
                    std::optional<double> run_init, std::optional<double> marker) {
    return {0.0, first_byte, banner, run_init, marker};
}

bb::SqlValue text_key(const std::string& text) {
    bb::SqlValue value;
    value.kind = bb::SqlValue::Kind::Text;
    value.text = text;
    return value;
}

PhaseBoot entered_boot(long long id, const std::string& group, const BootMoments& at) {
    PhaseBoot boot;
    boot.boot_id = id;
    boot.key = {text_key(group)};
    boot.moments = at;
    boot.entered = true;
    return boot;
}

// Eight boots whose phases are the given ones plus a spread that differs by phase and boot;
// the same spread on both sides, so a phase with no shift has identical values on either side.
std::vector<PhaseBoot> boots_with_phases(const std::string& group, long long first_id,
                                         const std::array<double, 4>& phases) {
    constexpr std::array<double, 8> spread{0.000,  0.013, -0.007, 0.021,
                                           -0.016, 0.005, -0.011, 0.009};
    std::vector<PhaseBoot> boots;
    for (size_t i = 0; i < spread.size(); ++i) {
        double at = 0;
        BootMoments m{0.0, std::nullopt, std::nullopt, std::nullopt, std::nullopt};
        for (size_t p = 0; p < 4; ++p) {
            at += phases[p] + spread[(i + 3 * p) % spread.size()];
            m[p + 1] = at;
        }
        boots.push_back(entered_boot(first_id + static_cast<long long>(i), group, m));
    }
    return boots;
}

} // namespace

TEST_CASE("a boot's phases are differences of its moments and add up to its endpoint",
          "[boot_phases]") {
    const auto values = bb::phase_values(moments(0.25, 1.5, 1.875, 2.0));
    REQUIRE(values[k_firmware]);
    CHECK(*values[k_firmware] == Approx(0.25));
    CHECK(*values[k_pre_banner] == Approx(1.25));
    CHECK(*values[k_kernel] == Approx(0.375));
    CHECK(*values[k_init] == Approx(0.125));
    const auto endpoint = bb::phase_value(bb::k_endpoint_phase, moments(0.25, 1.5, 1.875, 2.0));
    REQUIRE(endpoint);
    CHECK(*values[0] + *values[1] + *values[2] + *values[3] == Approx(*endpoint));
    // The table is in boot order, each phase starting where the one before ended.
    for (size_t p = 1; p < bb::k_phase_count; ++p) {
        CHECK(bb::k_boot_phases[p].from == bb::k_boot_phases[p - 1].to);
    }
    CHECK(bb::k_boot_phases.front().from == BootMoment::QemuStart);
    CHECK(bb::k_boot_phases.back().to == BootMoment::Marker);
}

TEST_CASE("a missing moment empties only the phases that need it", "[boot_phases]") {
    SECTION("no marker: init and the endpoint are empty, the rest are not") {
        const auto values = bb::phase_values(moments(0.25, 1.5, 1.875, std::nullopt));
        CHECK(values[k_firmware]);
        CHECK(values[k_pre_banner]);
        CHECK(values[k_kernel]);
        CHECK_FALSE(values[k_init]);
        CHECK_FALSE(bb::phase_value(bb::k_endpoint_phase, moments(0.25, 1.5, 1.875, std::nullopt)));
    }
    SECTION("no banner (quiet): pre-banner and kernel are empty") {
        const auto values = bb::phase_values(moments(0.25, std::nullopt, 1.875, 2.0));
        CHECK(values[k_firmware]);
        CHECK_FALSE(values[k_pre_banner]);
        CHECK_FALSE(values[k_kernel]);
        CHECK(values[k_init]);
    }
}

TEST_CASE("grouped phases count the boots that lack a moment and those left out", "[boot_phases]") {
    std::vector<PhaseBoot> boots{
        entered_boot(1, "a", moments(0.2, 1.4, 1.8, 2.0)),
        entered_boot(2, "a", moments(0.3, 1.5, 1.9, std::nullopt)), // hung after Run /init
        entered_boot(3, "a", moments(0.2, 1.4, 1.8, 2.2)),
    };
    PhaseBoot excluded = entered_boot(4, "a", moments(0.2, 1.4, 1.8, 2.0));
    excluded.entered = false; // failed or loaded, not let in
    boots.push_back(excluded);
    PhaseBoot nested = entered_boot(5, "a", moments(0.2, 1.4, 1.8, 15.0));
    nested.from_marker = "l2-start";
    boots.push_back(nested);

    const bb::PhaseSet set = bb::group_phases({"variant"}, boots);
    REQUIRE(set.groups.size() == 1);
    const bb::PhaseGroup& group = set.groups.front();
    CHECK(group.boots == 5);
    CHECK(group.entered == 3);
    CHECK(group.excluded == 1);
    CHECK(group.from_marker == 1);
    CHECK(set.from_marker.at("l2-start") == 1);
    CHECK(group.phases[k_firmware].size() == 3);
    CHECK(group.phases[k_kernel].size() == 3);
    CHECK(group.phases[k_init].size() == 2); // the boot without a marker adds nothing to init
    CHECK(group.lacking[k_init] == 1);
    CHECK(group.lacking[k_kernel] == 0);
    CHECK(group.endpoint.size() == 2);
    CHECK(group.lacking_endpoint == 1);
    // Said in the notes, not silently dropped.
    bool said = false;
    for (const auto& note : bb::phase_notes(set)) {
        said = said || note.rfind("init: 1 of 3 boots show no Run /init or no marker", 0) == 0;
    }
    CHECK(said);
}

TEST_CASE("a shift put in one phase is attributed to that phase and no other", "[boot_phases]") {
    const std::array<double, 4> base{0.25, 1.2, 0.4, 0.12};
    for (size_t shifted = 0; shifted < bb::k_phase_count; ++shifted) {
        std::array<double, 4> moved = base;
        moved[shifted] += 0.3;
        const bb::PhaseSet a = bb::group_phases({"variant"}, boots_with_phases("x", 1, base));
        const bb::PhaseSet b = bb::group_phases({"variant"}, boots_with_phases("x", 100, moved));
        const bb::PhaseAttribution attribution = bb::attribute_phases(a, b);
        REQUIRE(attribution.groups.size() == 1);
        const bb::GroupAttribution& group = attribution.groups.front();
        INFO("shifted phase " << bb::k_boot_phases[shifted].name);
        for (size_t p = 0; p < bb::k_phase_count; ++p) {
            INFO("phase " << bb::k_boot_phases[p].name);
            CHECK(group.phases[p].carries == (p == shifted));
        }
        CHECK(group.phases[shifted].comparison.difference == Approx(0.3).margin(0.02));
        CHECK(group.endpoint.carries);
        CHECK(bb::carrying_phases(group) ==
              std::vector<std::string>{std::string(bb::k_boot_phases[shifted].name)});
    }
}

TEST_CASE("no shift anywhere: no phase carries one", "[boot_phases]") {
    const std::array<double, 4> base{0.25, 1.2, 0.4, 0.12};
    const bb::PhaseSet a = bb::group_phases({"variant"}, boots_with_phases("x", 1, base));
    const bb::PhaseSet b = bb::group_phases({"variant"}, boots_with_phases("x", 100, base));
    const bb::GroupAttribution group = bb::attribute_phases(a, b).groups.front();
    CHECK(bb::carrying_phases(group).empty());
    CHECK_FALSE(group.endpoint.carries);
}

TEST_CASE("too few boots: a phase's interval is not answered and carries nothing",
          "[boot_phases]") {
    const std::array<double, 4> base{0.25, 1.2, 0.4, 0.12};
    auto few_a = boots_with_phases("x", 1, base);
    auto few_b = boots_with_phases("x", 100, {0.25, 1.2, 0.9, 0.12});
    few_a.resize(3);
    few_b.resize(3); // 3 vs 3 can never reach 95 %
    const bb::GroupAttribution group =
        bb::attribute_phases(bb::group_phases({"v"}, few_a), bb::group_phases({"v"}, few_b))
            .groups.front();
    CHECK_FALSE(group.phases[k_kernel].carries);
    CHECK_FALSE(group.phases[k_kernel].comparison.insufficient.empty());
}

TEST_CASE("phases read from the store follow the used-sample rule", "[boot_phases]") {
    bb::test::Store s;
    const long long run = s.run("phases");
    const auto store_boot = [&](std::optional<double> marker, bb::BootOutcome outcome,
                                std::optional<bool> loaded, const std::string& start_marker) {
        bb::BootRecord record =
            s.record(run, R"({"variant":"a"})", marker, outcome, 0.0, {}, loaded);
        record.first_byte_seconds = 0.25;
        record.banner_seconds = 1.5;
        record.run_init_seconds = 1.875;
        record.start_marker = start_marker;
        record.timing_marker = "boot-done";
        return s.store.insert_boot(record);
    };
    store_boot(2.0, bb::BootOutcome::Ok, false, "");
    store_boot(2.25, bb::BootOutcome::Ok, false, "");
    store_boot(std::nullopt, bb::BootOutcome::Timeout, false, ""); // hung after Run /init
    store_boot(2.5, bb::BootOutcome::Ok, true, "");                // ran loaded
    store_boot(14.0, bb::BootOutcome::Ok, false, "l2-start");      // nested: L2's time

    bb::SampleQuery query;
    query.by = {"variant"};
    SECTION("by default: the ok, quiet boots timed from qemu's start") {
        const bb::PhaseSet set = bb::query_phases(s.db, query);
        REQUIRE(set.groups.size() == 1);
        const bb::PhaseGroup& group = set.groups.front();
        CHECK(group.boots == 5);
        CHECK(group.entered == 2);
        CHECK(group.excluded == 2);
        CHECK(group.from_marker == 1);
        CHECK(group.phases[k_firmware] == std::vector<double>{0.25, 0.25});
        CHECK(group.phases[k_init] == std::vector<double>{0.125, 0.375});
        CHECK(group.endpoint == std::vector<double>{2.0, 2.25});
    }
    SECTION("--include-failed: the hung boot adds to every phase but init") {
        query.include_failed = true;
        const bb::PhaseGroup group = bb::query_phases(s.db, query).groups.front();
        CHECK(group.entered == 3);
        CHECK(group.used_failed == 1);
        CHECK(group.phases[k_kernel].size() == 3);
        CHECK(group.phases[k_init].size() == 2);
        CHECK(group.lacking[k_init] == 1);
    }
    SECTION("--include-loaded: the loaded boot enters") {
        query.include_loaded = true;
        const bb::PhaseGroup group = bb::query_phases(s.db, query).groups.front();
        CHECK(group.entered == 3);
        CHECK(group.used_loaded == 1);
    }
}
