#include "report/history.h"

#include "report/sample_query.h"
#include "util/error.h"

#include <algorithm>
#include <fmt/format.h>
#include <map>

namespace bb {

namespace {

// Hashes print by their first 12 digits, as `bootbench builds` lists keys.
std::string shortened(const std::string& value) {
    return value.size() > 12 && value.find_first_not_of("0123456789abcdef") == std::string::npos
               ? value.substr(0, 12)
               : value;
}

// The boots of one cell, night by night.
struct CellNights {
    std::string cell_key;
    std::map<size_t, std::vector<double>> values; // night index → used values
    std::map<size_t, int> excluded;
};

std::map<std::string, CellNights> by_cell(const SampleSet& set,
                                          const std::map<long long, size_t>& night_of_run) {
    std::map<std::string, CellNights> cells;
    for (const auto& group : set.groups) {
        for (const auto& sample : group.samples) {
            CellNights& cell = cells[sample.cell_key];
            cell.cell_key = sample.cell_key;
            const size_t night = night_of_run.at(sample.run_id);
            if (sample.use == Sample::Use::Used && sample.value) {
                cell.values[night].push_back(*sample.value);
            } else {
                ++cell.excluded[night];
            }
        }
    }
    return cells;
}

// Each level between change points divided by its own median night: a shift is not
// night-to-night noise, and the variance should say how noisy nights are at a steady level.
stats::NightBoots levels_apart(stats::NightBoots nights, const std::vector<double>& medians_of,
                               const std::vector<HistoryChange>& changes) {
    size_t start = 0;
    for (size_t c = 0; c <= changes.size(); ++c) {
        const size_t end =
            c < changes.size() ? static_cast<size_t>(changes[c].night) : nights.size();
        std::vector<double> medians;
        for (size_t night = start; night < end; ++night) {
            medians.push_back(medians_of[night]);
        }
        std::sort(medians.begin(), medians.end());
        const size_t n = medians.size();
        const double level =
            n % 2 == 1 ? medians[n / 2] : (medians[n / 2 - 1] + medians[n / 2]) / 2;
        for (size_t night = start; night < end; ++night) {
            for (double& value : nights[night]) {
                value /= level;
            }
        }
        start = end;
    }
    return nights;
}

// The smallest history in which a perfect step can be seen anywhere at α, said when there are
// fewer nights than that (issue 48 item 5b: at least 7 nights is the minimum to attempt a test,
// not to find one).
std::string nights_needed_text(double alpha) {
    stats::ChangePointOptions options;
    options.alpha = alpha;
    for (int nights = k_min_history_nights; nights <= 40; ++nights) {
        if (!stats::visible_step_positions(nights, options).empty()) {
            return fmt::format("even a perfect step is seen only from {} nights at α {:g}", nights,
                               alpha);
        }
    }
    return fmt::format("no history of up to 40 nights sees a step at α {:g}", alpha);
}

// Which nights a step could start at and be seen with this many nights (fewer than every
// position: say so, and that a shift in the last nights cannot be seen yet).
std::string step_visibility(const CellHistory& cell, const stats::ChangePointOptions& options) {
    const int nights = static_cast<int>(cell.nights.size());
    const auto visible = stats::visible_step_positions(nights, options);
    if (visible.empty()) {
        return fmt::format("with {} nights no step can be seen yet at α {:g} (a perfect one "
                           "included); {}",
                           nights, options.alpha, nights_needed_text(options.alpha));
    }
    const int admissible = nights - 2 * std::max(1, options.min_nights) + 1;
    if (static_cast<int>(visible.size()) == admissible) {
        return "";
    }
    return fmt::format("with {} nights a step is seen only when it starts at night {} to {} "
                       "(a perfect one included): one in the last {} nights cannot be seen yet",
                       nights, visible.front() + 1, visible.back() + 1,
                       nights - visible.back() - 1);
}

CellHistory cell_history(const CellNights& boots, const std::vector<NightRun>& nights,
                         const std::map<std::pair<long long, std::string>, NightInputs>& inputs,
                         double alpha) {
    CellHistory cell;
    cell.cell_key = boots.cell_key;
    stats::NightBoots values;
    for (const auto& [night, used] : boots.values) {
        HistoryNight entry;
        entry.run = nights[night];
        entry.date = entry.run.started_at.substr(0, 10);
        const auto excluded = boots.excluded.find(night);
        entry.excluded = excluded == boots.excluded.end() ? 0 : excluded->second;
        const auto found = inputs.find({entry.run.run_id, cell.cell_key});
        if (found != inputs.end()) {
            entry.inputs = found->second;
        }
        entry.values = used;
        if (!cell.nights.empty()) {
            entry.host_changes = night_host_changes(cell.nights.back().inputs, entry.inputs);
        }
        cell.nights.push_back(std::move(entry));
        values.push_back(used);
    }
    const auto medians = stats::night_medians(values, 1 - alpha);
    std::vector<double> estimates;
    for (size_t i = 0; i < medians.size(); ++i) {
        cell.nights[i].median = medians[i];
        estimates.push_back(medians[i].estimate);
    }
    cell.variance = stats::night_variance(values);
    const int count = static_cast<int>(cell.nights.size());
    if (count < k_min_history_nights) {
        cell.insufficient = fmt::format(
            "{} night{} with used boots: a change-point test needs at least {} (3 on each side "
            "of a shift), so none was made; {}",
            count, count == 1 ? "" : "s", k_min_history_nights, nights_needed_text(alpha));
        return cell;
    }
    stats::ChangePointOptions options;
    options.alpha = alpha;
    options.level = 1 - alpha;
    cell.visibility = step_visibility(cell, options);
    const stats::ChangePoints points = stats::change_points(estimates, options);
    cell.insufficient = points.insufficient;
    for (const auto& point : points.points) {
        HistoryChange change;
        change.night = point.night;
        change.point = point;
        const auto night = static_cast<size_t>(point.night);
        cell.nights[night].flagged = true;
        change.changed = changed_inputs(cell.nights[night - 1].inputs, cell.nights[night].inputs);
        for (const auto& input : change.changed) {
            change.host_change = change.host_change || input.input.rfind("host", 0) == 0;
        }
        cell.changes.push_back(std::move(change));
    }
    if (!cell.changes.empty()) {
        cell.variance = stats::night_variance(levels_apart(values, estimates, cell.changes));
    }
    return cell;
}

} // namespace

std::vector<HostConditionChange> night_host_changes(const NightInputs& before,
                                                    const NightInputs& after) {
    // Both nights must have recorded them (schema 12, a boot on this machine); within a night
    // the conditions rarely change, and the last ones before are compared with the first after.
    if (before.host_conditions.empty() || after.host_conditions.empty()) {
        return {};
    }
    const auto parsed = [](const std::string& text) {
        return nlohmann::json::parse(text, nullptr, false);
    };
    return host_condition_changes(parsed(before.host_conditions.back()),
                                  parsed(after.host_conditions.front()));
}

std::vector<InputChange> changed_inputs(const NightInputs& before, const NightInputs& after) {
    std::vector<InputChange> changed;
    // Parts a missing record leaves empty (no build row, no KVM probe) are compared only when
    // both nights know them; the others' empty value is a real one ("none").
    const auto compare = [&changed](const char* input, const std::string& a, const std::string& b,
                                    bool known_only) {
        if (a == b || (known_only && (a.empty() || b.empty()))) {
            return;
        }
        changed.push_back(
            {input, a.empty() ? "none" : shortened(a), b.empty() ? "none" : shortened(b)});
    };
    compare("build key", before.build_key, after.build_key, false);
    compare("kernel", before.kernel, after.kernel, true);
    compare("patches", before.patches, after.patches, true);
    compare("config", before.config, after.config, true);
    compare("qemu", before.qemu, after.qemu, true);
    compare("firmware", before.firmware, after.firmware, false);
    compare("host", before.host, after.host, false);
    for (const auto& condition : night_host_changes(before, after)) {
        changed.push_back({"host " + condition.name, condition.before, condition.after});
    }
    return changed;
}

std::vector<NightRun> require_nightly_runs(Database& db, const std::string& experiment) {
    std::vector<NightRun> nights = nightly_runs(db, experiment);
    if (nights.empty()) {
        throw Error(fmt::format("experiment '{}' has no nightly run in {} (`bootbench nightly "
                                "FILE` stores one a night; `bootbench runs` lists the runs)",
                                experiment, db.path().string()));
    }
    return nights;
}

History query_history(Database& db, const HistoryQuery& query) {
    History history;
    history.experiment = query.experiment;
    history.metric = query.metric;
    history.alpha = query.alpha;
    history.nights = require_nightly_runs(db, query.experiment);
    SampleQuery samples;
    samples.experiment = query.experiment;
    std::map<long long, size_t> night_of_run;
    for (size_t i = 0; i < history.nights.size(); ++i) {
        samples.run_ids.push_back(history.nights[i].run_id);
        night_of_run[history.nights[i].run_id] = i;
    }
    samples.only = query.only;
    samples.metric = query.metric;
    const SampleSet set = query_samples(db, samples);
    history.unit = set.unit;
    history.seconds = set.seconds;
    if (set.used == 0) {
        throw Error(fmt::format("the {} nightly runs of '{}' have no used boot{} of {} (failed, "
                                "loaded or without a value): no history to show",
                                history.nights.size(), query.experiment,
                                query.only.empty() ? "" : " with the --only values", query.metric));
    }
    std::map<std::pair<long long, std::string>, NightInputs> inputs;
    for (auto& night : night_inputs(db, samples.run_ids)) {
        inputs[{night.run_id, night.cell_key}] = std::move(night);
    }
    for (const auto& [key, cell] : by_cell(set, night_of_run)) {
        if (!cell.values.empty()) {
            history.cells.push_back(cell_history(cell, history.nights, inputs, query.alpha));
        }
    }
    return history;
}

} // namespace bb
