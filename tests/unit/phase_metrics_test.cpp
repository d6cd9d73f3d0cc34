#include "pipeline/phase_metrics.h"

#include <catch2/catch.hpp>

using namespace bb;

namespace {
ConsoleEvent marker(double host_s, std::string name) {
    return {ConsoleEvent::Kind::Marker, host_s, std::nullopt, std::move(name)};
}
} // namespace

TEST_CASE("a start and end marker pair becomes a phase metric on the host clock", "[phase]") {
    BootRecord record;
    record.events = {marker(1.0, "boot-done"),
                     marker(2.5, "efivar-storm-start"),
                     {ConsoleEvent::Kind::Warning, 3.0, std::nullopt, "efivar-storm-end"},
                     marker(9.75, "efivar-storm-end"),
                     marker(10.0, "end")};
    add_phase_metrics(record);
    REQUIRE(record.metrics.size() == 1);
    CHECK(record.metrics[0].name == "efivar_storm_seconds");
    CHECK(record.metrics[0].value == Approx(7.25));
    CHECK(record.metrics[0].unit == "s");
    CHECK(record.metrics[0].host_s == Approx(9.75));
}

TEST_CASE("a phase without its end, or a bare -start marker, adds no metric", "[phase]") {
    BootRecord record;
    record.events = {marker(1.0, "l2-start"), marker(2.0, "-start"), marker(3.0, "l2-exit"),
                     marker(4.0, "late-end"), marker(5.0, "late-start")};
    add_phase_metrics(record);
    CHECK(record.metrics.empty());
    CHECK(marker_host_seconds(record, "l2-exit") == Approx(3.0));
    CHECK_FALSE(marker_host_seconds(record, "l2-end").has_value());
}
