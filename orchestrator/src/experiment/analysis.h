#pragma once
// The declared analysis of an experiment (`analysis:`, docs/experiments.md#analysis): the one
// endpoint the run is judged on, which values of which axis are compared within each value of
// the other axes, whether boots are paired by round, α and the family Holm's correction runs
// over. Declared before the run, stored with it, so its verdict can be reprinted and cannot be
// chosen after looking at the data.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bb {

// What one boot contributes: its boot time, one metric, or its geomean over the metrics
// `<prefix>.<item>` (the per-item endpoint,
// docs/reporting.md#per-item-table-view-per-item-seed-003).
enum class EndpointKind { BootSeconds, Metric, Geomean };

struct Endpoint {
    EndpointKind kind = EndpointKind::BootSeconds;
    std::string name; // the metric, or the items' prefix; empty for boot_seconds

    std::string label() const; // boot_seconds | NAME | geomean(PREFIX.*)
    bool operator==(const Endpoint&) const = default;
};

struct ComparedPair {
    std::string a; // the reference
    std::string b; // judged against it: the estimate is B / A (or B − A)
    bool operator==(const ComparedPair&) const = default;
};

// A secondary endpoint declared with the primary (`analysis.secondary`, docs/experiments.md#
// secondary-endpoints-and-premises): the same axis, pairs, pairing, α and family, another
// endpoint. With `within`, a premise the primary rests on (the calibrations a relative endpoint
// divides by must not move between the arms): it holds when the whole interval of B / A lies in
// [1 / (1 + within), 1 + within]; a significance test alone could only fail to show a move.
struct SecondaryEndpoint {
    Endpoint endpoint;
    std::optional<double> within; // the premise's margin, a fraction; none: only reported
    bool operator==(const SecondaryEndpoint&) const = default;
};

// Holm's family: every comparison of the file, or the comparisons of one condition (one value
// of the other axes) each.
enum class HolmFamily { All, Condition };

// Which way is better, for the decision's words: for times lower is better (B slower/faster).
enum class Direction { Lower, Higher };

struct Analysis {
    Endpoint endpoint;
    std::string axis; // the compared axis
    std::vector<ComparedPair> pairs;
    // `trend:` instead of `compare:`: the axis's values in their declared order; one
    // Jonckheere–Terpstra test of a monotone trend across them per condition (pairs empty).
    std::vector<std::string> trend;
    bool paired = false; // paired by round (repeat index)
    double alpha = 0.05;
    HolmFamily family = HolmFamily::All;
    bool ratio = true; // B / A on the log scale; false: the shift B − A
    Direction direction = Direction::Lower;
    std::vector<SecondaryEndpoint> secondary; // compare: only

    bool is_trend() const { return !trend.empty(); }
    bool operator==(const Analysis&) const = default;
};

std::string_view to_string(HolmFamily family);
std::string_view to_string(Direction direction);

// Stored with the run (runs.analysis_json, schema 9) so `report --view verdict` reads the
// analysis the run was made with.
nlohmann::json analysis_to_json(const Analysis& analysis);
// Throws Error on JSON that analysis_to_json did not write.
Analysis analysis_from_json(const nlohmann::json& json);
// The same from a stored column's text; text that is not JSON is an Error naming it.
Analysis analysis_from_json(const std::string& stored);

} // namespace bb
