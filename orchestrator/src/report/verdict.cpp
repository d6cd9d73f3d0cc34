#include "report/verdict.h"

#include "report/render_support.h"
#include "stats/holm.h"
#include "stats/jonckheere.h"
#include "stats/round_pairs.h"
#include "stats/signed_rank.h"
#include "stats/sorted.h"
#include "stats/two_sample.h"
#include "store/boot_store.h"
#include "store/run_queries.h"
#include "util/error.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <iterator>
#include <map>
#include <set>

namespace bb {

namespace {

// One side of a comparison: the used values with their rounds, and how many boots were left out.
struct Side {
    std::vector<stats::RoundValue> values;
    int left_out = 0;
};
using Condition = std::map<std::string, Side>; // compared value -> its boots

std::string value_text(const nlohmann::json& value) {
    return value.is_string() ? value.get<std::string>() : value.dump();
}

// The axes other than the compared one that take more than one value in the run: a condition
// is named by them alone (an axis with one value says nothing about where a row belongs).
std::set<std::string> varying_axes(const std::vector<EndpointBoot>& boots,
                                   const std::string& axis) {
    std::map<std::string, std::set<std::string>> values;
    for (const auto& boot : boots) {
        for (const auto& [name, value] : boot.params.items()) {
            values[name].insert(value_text(value));
        }
    }
    std::set<std::string> varying;
    for (const auto& [name, seen] : values) {
        if (name != axis && seen.size() > 1) {
            varying.insert(name);
        }
    }
    return varying;
}

// A condition: the values of the other varying axes, as stored (an object of axis -> value).
// Keys keep the stored types, so conditions sort as values do: hz 250 before hz 1000, numbers
// compared as numbers (nlohmann's ordering), with no text to re-parse.
nlohmann::json condition_key(const nlohmann::json& params, const std::set<std::string>& axes) {
    nlohmann::json key = nlohmann::json::object();
    for (const auto& [name, value] : params.items()) {
        if (axes.count(name) != 0) {
            key[name] = value;
        }
    }
    return key;
}

// "hz=250, smp=2"; "all boots" when no other axis varies.
std::string condition_text(const nlohmann::json& key) {
    std::string text;
    for (const auto& [name, value] : key.items()) {
        text += (text.empty() ? "" : ", ") + name + "=" + value_text(value);
    }
    return text.empty() ? "all boots" : text;
}

std::map<nlohmann::json, Condition> group_boots(const Analysis& analysis,
                                                const std::vector<EndpointBoot>& all) {
    std::vector<EndpointBoot> boots;
    std::copy_if(all.begin(), all.end(), std::back_inserter(boots), [&](const EndpointBoot& boot) {
        return boot.params.is_object() && boot.params.contains(analysis.axis);
    });
    const std::set<std::string> others = varying_axes(boots, analysis.axis);
    std::map<nlohmann::json, Condition> conditions;
    for (const auto& boot : boots) {
        Side& side = conditions[condition_key(boot.params, others)]
                               [value_text(boot.params.at(analysis.axis))];
        if (boot.used && boot.value) {
            side.values.emplace_back(boot.round, *boot.value);
        } else {
            ++side.left_out;
        }
    }
    return conditions;
}

std::vector<double> values_of(const Side& side) {
    std::vector<double> values;
    for (const auto& [round, value] : side.values) {
        values.push_back(value);
    }
    return values;
}

VerdictRow compare(const Analysis& analysis, const Side& a, const Side& b) {
    const double level = 1 - analysis.alpha;
    VerdictRow row;
    row.left_out_a = a.left_out;
    row.left_out_b = b.left_out;
    if (analysis.paired) {
        const stats::RoundPairs pairs = stats::pair_by_round(a.values, b.values);
        row.unpaired = pairs.unpaired;
        row.n_a = row.n_b = static_cast<int>(pairs.a.size());
        row.ratio = stats::signed_rank_ratio(pairs.a, pairs.b, level);
        row.shift = stats::signed_rank_shift(pairs.a, pairs.b, level);
        return row;
    }
    const std::vector<double> xs = values_of(a);
    const std::vector<double> ys = values_of(b);
    row.n_a = static_cast<int>(xs.size());
    row.n_b = static_cast<int>(ys.size());
    row.ratio = stats::hodges_lehmann_ratio(xs, ys, level);
    row.shift = stats::hodges_lehmann_shift(xs, ys, level);
    return row;
}

// One condition's trend row: the declared values in order, the test over those with used boots.
// A condition holding fewer than two of them (an anchor cell outside the sweep) is not tested.
VerdictRow trend_row(const Analysis& analysis, const Condition& sides) {
    VerdictRow row;
    std::vector<std::vector<double>> groups;
    for (const auto& value : analysis.trend) {
        const auto found = sides.find(value);
        const Side side = found == sides.end() ? Side{} : found->second;
        std::vector<double> values = values_of(side);
        row.left_out_a += side.left_out;
        row.trend_n.push_back(static_cast<int>(values.size()));
        row.trend_medians.push_back(values.empty() ? stats::k_nan
                                                   : stats::sorted_median_of(values));
        if (!values.empty()) {
            groups.push_back(std::move(values));
        }
    }
    row.n_a = static_cast<int>(groups.size());
    if (groups.size() < 2) {
        row.trend.insufficient = fmt::format("not tested: holds {} of the {} values", groups.size(),
                                             analysis.trend.size());
        return row;
    }
    row.trend_null_mean = stats::jonckheere_null_mean(groups);
    row.trend = stats::jonckheere_terpstra(groups);
    return row;
}

std::string decide_trend(const Analysis& analysis, const VerdictRow& row) {
    if (!row.trend.answered()) {
        return row.trend.insufficient.starts_with("not tested")
                   ? row.trend.insufficient
                   : "insufficient: " + row.trend.insufficient;
    }
    if (!(row.p_adjusted <= analysis.alpha)) {
        return "no trend shown";
    }
    // J counts pairs in which the later value's boot is the larger.
    return row.trend.estimate > row.trend_null_mean ? "increasing" : "decreasing";
}

std::string decide(const Analysis& analysis, const VerdictRow& row) {
    if (analysis.is_trend()) {
        return decide_trend(analysis, row);
    }
    const stats::Result& result = row.primary(analysis);
    if (!result.answered()) {
        return "insufficient: " + result.insufficient;
    }
    if (!(row.p_adjusted <= analysis.alpha)) {
        // The unadjusted interval may exclude the null while the Holm-adjusted p does not reach
        // α: say so, or the words contradict the numbers beside them (issue 48 item 9).
        return result.p_value <= analysis.alpha
                   ? fmt::format("not decided at α {} after Holm (p {})",
                                 ValueFormat::plain(analysis.alpha), p_value_text(row.p_adjusted))
                   : std::string("no difference shown");
    }
    const bool higher = analysis.ratio ? result.estimate > 1 : result.estimate > 0;
    if (analysis.direction == Direction::Lower) {
        return higher ? "B slower" : "B faster";
    }
    return higher ? "B better" : "B worse";
}

// Holm over the declared family: every row, or the rows of one condition.
void adjust(const Analysis& analysis, std::vector<VerdictRow>& rows) {
    std::map<std::string, std::vector<size_t>> families;
    for (size_t i = 0; i < rows.size(); ++i) {
        // A condition outside a trend's sweep (an anchor) holds no test.
        if (analysis.is_trend() && !rows[i].trend.answered()) {
            continue;
        }
        families[analysis.family == HolmFamily::All ? "" : rows[i].condition].push_back(i);
    }
    for (const auto& [name, members] : families) {
        std::vector<double> p_values;
        for (const size_t i : members) {
            const stats::Result& result = rows[i].primary(analysis);
            p_values.push_back(result.answered() ? result.p_value : stats::k_nan);
        }
        const std::vector<double> adjusted = stats::holm_adjust(p_values);
        for (size_t k = 0; k < members.size(); ++k) {
            rows[members[k]].p_adjusted = adjusted[k];
        }
    }
}

} // namespace

std::vector<VerdictRow> verdict_rows(const Analysis& analysis,
                                     const std::vector<EndpointBoot>& boots) {
    std::vector<VerdictRow> rows;
    for (const auto& [key, sides] : group_boots(analysis, boots)) {
        const std::string condition = condition_text(key);
        if (analysis.is_trend()) {
            rows.push_back(trend_row(analysis, sides));
            rows.back().condition = condition;
        }
        for (const auto& pair : analysis.pairs) {
            const auto a = sides.find(pair.a);
            const auto b = sides.find(pair.b);
            VerdictRow row = compare(analysis, a == sides.end() ? Side{} : a->second,
                                     b == sides.end() ? Side{} : b->second);
            row.condition = condition;
            row.pair = pair;
            rows.push_back(std::move(row));
        }
    }
    adjust(analysis, rows);
    for (auto& row : rows) {
        row.decision = decide(analysis, row);
    }
    return rows;
}

void decide_premise(const Analysis& analysis, double within, std::vector<VerdictRow>& rows) {
    const std::string margin = fmt::format("±{:g} %", within * 100);
    const double low_edge = 1 / (1 + within);
    const double high_edge = 1 + within;
    for (auto& row : rows) {
        const stats::Result& ratio = row.ratio;
        const double low = ratio.interval.low;
        const double high = ratio.interval.high;
        if (!ratio.answered() || !std::isfinite(low) || !std::isfinite(high)) {
            row.decision = ratio.answered() ? "insufficient: no interval at the declared level"
                                            : "insufficient: " + ratio.insufficient;
        } else if (low >= low_edge && high <= high_edge) {
            row.decision = "holds: within " + margin;
        } else if (low > high_edge || high < low_edge) {
            // The whole interval beyond the margin: a move at least as large as it is shown.
            row.decision = fmt::format("fails: moved beyond {} (B {})", margin,
                                       low > high_edge ? "higher" : "lower");
        } else if (row.p_adjusted <= analysis.alpha) {
            row.decision = "not shown within " + margin + " (a move is significant)";
        } else {
            row.decision = "not shown within " + margin;
        }
    }
}

namespace {
VerdictTable secondary_verdict(Database& db, const VerdictTable& primary,
                               const SecondaryEndpoint& secondary) {
    VerdictTable table;
    table.run_id = primary.run_id;
    table.experiment = primary.experiment;
    table.analysis = primary.analysis;
    table.analysis.endpoint = secondary.endpoint;
    table.analysis.secondary.clear();
    table.within = secondary.within;
    table.rows = verdict_rows(table.analysis, endpoint_boots(db, table.run_id, secondary.endpoint));
    if (secondary.within) {
        decide_premise(table.analysis, *secondary.within, table.rows);
    }
    return table;
}
} // namespace

VerdictTable compute_verdict(Database& db, long long run_id) {
    BootStore store(db);
    const auto identity = store.run_identity(run_id);
    if (!identity) {
        require_runs(db, {run_id}); // names the runs there are and how to list them
        throw Error(fmt::format("no run {} in {}", run_id, db.path().string()));
    }
    const auto stored = store.run_analysis(run_id);
    if (!stored) {
        throw Error(fmt::format("run {} ({}) declares no analysis: its experiment file had no "
                                "analysis: key when it ran (docs/experiments.md#analysis)",
                                run_id, identity->experiment_name));
    }
    VerdictTable table;
    table.run_id = run_id;
    table.experiment = identity->experiment_name;
    table.analysis = analysis_from_json(*stored);
    table.rows = verdict_rows(table.analysis, endpoint_boots(db, run_id, table.analysis.endpoint));
    for (const auto& secondary : table.analysis.secondary) {
        table.secondary.push_back(secondary_verdict(db, table, secondary));
    }
    return table;
}

std::string exploratory_note(const std::vector<long long>& runs, bool markdown,
                             const std::string& db_argument) {
    if (runs.empty()) {
        return "";
    }
    return fmt::format("{}exploratory: run {} declared an analysis; its verdict is `bootbench "
                       "{}report --view verdict --run {}`, every other figure is exploratory\n{}",
                       markdown ? "> " : "", fmt::join(runs, ", "), db_argument, runs.back(),
                       markdown ? "\n" : "");
}

bool decided_against_b(const VerdictTable& table) {
    return std::any_of(table.rows.begin(), table.rows.end(), [](const VerdictRow& row) {
        return row.decision == "B slower" || row.decision == "B worse";
    });
}

std::vector<long long> runs_with_analysis(Database& db, const std::vector<long long>& runs,
                                          const std::string& experiment) {
    std::vector<long long> found;
    for (const long long id : runs_declaring_analysis(db, experiment)) {
        if (runs.empty() || std::find(runs.begin(), runs.end(), id) != runs.end()) {
            found.push_back(id);
        }
    }
    return found;
}

} // namespace bb
