#include "report/sample_query.h"

#include "experiment/did_you_mean.h"
#include "report/host_split.h"
#include "report/load_rule.h"
#include "stats/holm.h"
#include "util/error.h"

#include <SQLiteCpp/SQLiteCpp.h>
#include <algorithm>
#include <array>
#include <fmt/format.h>
#include <limits>
#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>
#include <unordered_map>
#include <variant>

namespace bb {

namespace {

// Timing columns of `boots` a report can use in place of a metrics-table name. The SQL text
// comes from this table, never from the user.
struct ColumnMetric {
    std::string_view name;
    std::string_view sql;
};
constexpr std::array k_column_metrics{
    ColumnMetric{"boot_seconds", "b.boot_seconds"},
    ColumnMetric{"guest_marker_seconds", "b.guest_marker_seconds"},
    ColumnMetric{"first_byte_seconds", "b.first_byte_seconds"},
    ColumnMetric{"banner_seconds", "b.banner_seconds"},
    ColumnMetric{"run_init_seconds", "b.run_init_seconds"},
    ColumnMetric{"wall_seconds", "b.wall_seconds"},
};

// Pseudo-axes: boot columns rather than keys of params_json.
constexpr std::string_view k_cell_axis = "cell";
constexpr std::string_view k_run_axis = "run";
// The host a boot ran on: its libvirt URI, else its hostname (old boots: their run's host).
constexpr std::string_view k_host_axis = "host";
constexpr const char* k_host_sql = "(SELECT coalesce(h.libvirt_uri, h.hostname) FROM hosts h "
                                   "WHERE h.id = coalesce(b.host_id, (SELECT r2.host_id FROM "
                                   "runs r2 WHERE r2.id = b.run_id)))";

using Binding = std::variant<std::string, long long>;

void bind_all(SQLite::Statement& statement, const std::vector<Binding>& bindings) {
    for (size_t i = 0; i < bindings.size(); ++i) {
        const int index = static_cast<int>(i + 1);
        if (const auto* text = std::get_if<std::string>(&bindings[i])) {
            statement.bind(index, *text);
        } else {
            statement.bind(index, static_cast<int64_t>(std::get<long long>(bindings[i])));
        }
    }
}

std::string placeholders(size_t count) {
    std::string text;
    for (size_t i = 0; i < count; ++i) {
        text += i == 0 ? "?" : ", ?";
    }
    return text;
}

std::string join(const std::vector<std::string>& items, std::string_view separator) {
    std::string text;
    for (const auto& item : items) {
        text += (text.empty() ? "" : std::string(separator)) + item;
    }
    return text;
}

std::string suggestion(std::string_view word, const std::vector<std::string>& candidates) {
    const auto guess = did_you_mean(word, candidates);
    return guess ? fmt::format(" (did you mean '{}'?)", *guess) : "";
}

void check_experiment(SQLite::Database& db, const std::string& name, const std::string& where) {
    SQLite::Statement names(db, "SELECT DISTINCT name FROM experiments ORDER BY name");
    std::vector<std::string> known;
    while (names.executeStep()) {
        known.push_back(names.getColumn(0).getString());
    }
    if (std::find(known.begin(), known.end(), name) != known.end()) {
        return;
    }
    throw Error(fmt::format("no experiment named '{}' in {}{}; experiments there: {}", name, where,
                            suggestion(name, known),
                            known.empty() ? "none (only ad-hoc boots)" : join(known, ", ")));
}

void check_runs(SQLite::Database& db, const std::vector<long long>& run_ids,
                const std::string& where) {
    SQLite::Statement found(db, "SELECT id FROM runs WHERE id IN (" + placeholders(run_ids.size()) +
                                    ")");
    bind_all(found, std::vector<Binding>(run_ids.begin(), run_ids.end()));
    std::set<long long> present;
    while (found.executeStep()) {
        present.insert(found.getColumn(0).getInt64());
    }
    for (long long id : run_ids) {
        if (present.count(id) == 0) {
            SQLite::Statement range(db, "SELECT count(*), min(id), max(id) FROM runs");
            range.executeStep();
            throw Error(fmt::format(
                "no run {} in {}; {} (list them with: sqlite3 {} \"select id, started_at, "
                "status from runs\")",
                id, where,
                range.getColumn(0).getInt() == 0
                    ? std::string("it has no runs yet")
                    : fmt::format("its runs are numbered {} to {}", range.getColumn(1).getInt64(),
                                  range.getColumn(2).getInt64()),
                where));
        }
    }
}

// The SQL expression for the metric's value and, for a metrics-table name, its unit.
struct MetricSource {
    std::string sql;
    std::optional<std::string> bound_name;
    std::string unit;
    bool seconds = false;
};

MetricSource metric_source(SQLite::Database& db, const std::string& metric,
                           const std::string& where) {
    for (const auto& column : k_column_metrics) {
        if (column.name == metric) {
            return {std::string(column.sql), std::nullopt, "s", true};
        }
    }
    SQLite::Statement unit(db, "SELECT unit FROM metrics WHERE name = ? LIMIT 1");
    unit.bind(1, metric);
    if (!unit.executeStep()) {
        std::vector<std::string> known;
        for (const auto& column : k_column_metrics) {
            known.emplace_back(column.name);
        }
        SQLite::Statement names(db, "SELECT DISTINCT name FROM metrics ORDER BY name");
        while (names.executeStep()) {
            known.push_back(names.getColumn(0).getString());
        }
        throw Error(fmt::format("no metric named '{}' in {}{}; metrics: {}", metric, where,
                                suggestion(metric, known), join(known, ", ")));
    }
    // A guest may print the same metric twice; the first value printed is the boot's.
    return {"(SELECT m.value FROM metrics m WHERE m.boot_id = b.id AND m.name = ? "
            "ORDER BY m.id LIMIT 1)",
            metric, unit.getColumn(0).getString(), unit.getColumn(0).getString() == "s"};
}

AxisValue axis_value(const SQLite::Column& column) {
    AxisValue value;
    if (column.isNull()) {
        value.kind = AxisValue::Kind::Missing;
    } else if (column.isInteger()) {
        value.kind = AxisValue::Kind::Integer;
        value.integer = column.getInt64();
    } else if (column.isFloat()) {
        value.kind = AxisValue::Kind::Real;
        value.real = column.getDouble();
    } else {
        value.kind = AxisValue::Kind::Text;
        value.text = column.getString();
    }
    return value;
}

// Appends an unambiguous encoding of the column to `key` (length-prefixed, type-tagged) without
// building an AxisValue for every row.
void append_key(std::string& key, const SQLite::Column& column) {
    if (column.isNull()) {
        key += "n;";
        return;
    }
    const char tag = column.isInteger() ? 'i' : column.isFloat() ? 'r' : 't';
    const char* text = column.getText();
    const size_t size = static_cast<size_t>(column.getBytes());
    key += tag;
    key += std::to_string(size);
    key += ':';
    key.append(text, size);
}

double as_number(const AxisValue& value) {
    return value.kind == AxisValue::Kind::Integer ? static_cast<double>(value.integer) : value.real;
}

bool is_number(const AxisValue& value) {
    return value.kind == AxisValue::Kind::Integer || value.kind == AxisValue::Kind::Real;
}

// An axis nobody has is a typo: name the parameters the selected boots do have.
void check_axes_exist(const SampleSet& set) {
    for (size_t axis = 0; axis < set.axes.size(); ++axis) {
        const std::string& name = set.axes[axis];
        if (name == k_cell_axis || name == k_run_axis || name == k_host_axis) {
            continue;
        }
        const bool anyone =
            std::any_of(set.groups.begin(), set.groups.end(), [axis](const auto& g) {
                return g.key[axis].kind != AxisValue::Kind::Missing;
            });
        if (anyone) {
            continue;
        }
        std::set<std::string> keys;
        for (const auto& group : set.groups) {
            const auto params =
                nlohmann::json::parse(group.samples.front().params_json, nullptr, false);
            if (params.is_object()) {
                for (const auto& item : params.items()) {
                    keys.insert(item.key());
                }
            }
        }
        std::vector<std::string> known(keys.begin(), keys.end());
        known.emplace_back(k_cell_axis);
        known.emplace_back(k_run_axis);
        known.emplace_back(k_host_axis);
        throw Error(fmt::format("no selected boot has the parameter '{}'{}; axes to group by: {}",
                                name, suggestion(name, known), join(known, ", ")));
    }
}

// SQLite's quoted JSON path label `$."a.b"` ends at the next quote and has no escape.
void check_axis_name(std::string_view name) {
    if (name.find('"') != std::string_view::npos) {
        throw Error(fmt::format("--by: axis name {} contains a double quote, which no "
                                "experiment parameter can",
                                name));
    }
}

// " FROM boots b … WHERE …" for the query's experiment and runs; shared by every statement
// that reads the same selection.
std::string selection_sql(const SampleQuery& query, std::vector<Binding>& bindings) {
    std::string filter = " FROM boots b";
    if (!query.experiment.empty()) {
        filter += " JOIN runs r ON r.id = b.run_id JOIN experiments e ON e.id = r.experiment_id";
    }
    filter += " WHERE 1 = 1";
    if (!query.experiment.empty()) {
        filter += " AND e.name = ?";
        bindings.emplace_back(query.experiment);
    }
    if (!query.run_ids.empty()) {
        filter += " AND b.run_id IN (" + placeholders(query.run_ids.size()) + ")";
        bindings.insert(bindings.end(), query.run_ids.begin(), query.run_ids.end());
    }
    for (const auto& [axis, values] : query.only) {
        check_axis_name(axis);
        if (values.empty()) {
            continue;
        }
        if (axis == k_cell_axis) {
            filter += " AND b.cell_key";
        } else if (axis == k_run_axis) {
            filter += " AND CAST(b.run_id AS TEXT)";
        } else {
            filter += " AND CAST(json_extract(b.params_json, ?) AS TEXT)";
            bindings.emplace_back("$.\"" + axis + "\"");
        }
        filter += " IN (" + placeholders(values.size()) + ")";
        bindings.insert(bindings.end(), values.begin(), values.end());
    }
    return filter;
}

} // namespace

SampleQuery split_by_host(Database& db, SampleQuery query) {
    if (std::find(query.by.begin(), query.by.end(), k_host_axis) != query.by.end()) {
        return query;
    }
    std::vector<Binding> bindings;
    const std::string filter = selection_sql(query, bindings);
    SQLite::Statement hosts(db.sql(),
                            std::string("SELECT count(DISTINCT ") + k_host_sql + ")" + filter);
    bind_all(hosts, bindings);
    if (hosts.executeStep() && hosts.getColumn(0).getInt() > 1) {
        if (query.by.empty()) {
            query.by.emplace_back(k_cell_axis); // the default grouping, then the host
        }
        query.by.emplace_back(k_host_axis);
    }
    return query;
}

std::vector<std::string> lost_host_notes(Database& db, const SampleQuery& query) {
    std::vector<Binding> bindings;
    const std::string filter = selection_sql(query, bindings);
    SQLite::Statement select(
        db.sql(), std::string("SELECT ") + k_host_sql + ", count(*), min(b.outcome_reason)" +
                      filter +
                      " AND b.outcome = 'infra-error' AND b.outcome_reason LIKE 'host % stopped "
                      "answering%' GROUP BY 1 ORDER BY 1");
    bind_all(select, bindings);
    std::vector<std::string> notes;
    while (select.executeStep()) {
        notes.push_back(fmt::format("host {} was lost: {} sample(s) booted again elsewhere ({})",
                                    select.getColumn(0).getString(), select.getColumn(1).getInt(),
                                    select.getColumn(2).getString()));
    }
    return notes;
}

std::vector<std::string> parse_axes(std::string_view list) {
    std::vector<std::string> axes;
    size_t start = 0;
    while (start <= list.size()) {
        const size_t comma = std::min(list.find(',', start), list.size());
        std::string_view item = list.substr(start, comma - start);
        while (!item.empty() && item.front() == ' ') {
            item.remove_prefix(1);
        }
        while (!item.empty() && item.back() == ' ') {
            item.remove_suffix(1);
        }
        if (item.empty()) {
            throw Error(fmt::format("--by '{}': empty axis name; separate axes with single "
                                    "commas, e.g. --by hz,variant",
                                    list));
        }
        check_axis_name(item);
        if (std::find(axes.begin(), axes.end(), item) != axes.end()) {
            throw Error(fmt::format("--by '{}': axis '{}' is given twice", list, item));
        }
        axes.emplace_back(item);
        start = comma + 1;
    }
    return axes;
}

std::string AxisValue::display() const {
    switch (kind) {
    case Kind::Missing:
        return "(none)";
    case Kind::Integer:
        return std::to_string(integer);
    case Kind::Real:
        return fmt::format("{}", real);
    case Kind::Text:
        return text;
    }
    return {};
}

bool AxisValue::operator==(const AxisValue& other) const {
    if (kind != other.kind) {
        return false;
    }
    switch (kind) {
    case Kind::Missing:
        return true;
    case Kind::Integer:
        return integer == other.integer;
    case Kind::Real:
        return real == other.real;
    case Kind::Text:
        return text == other.text;
    }
    return false;
}

bool axis_value_less(const AxisValue& a, const AxisValue& b) {
    using Kind = AxisValue::Kind;
    if ((a.kind == Kind::Missing) != (b.kind == Kind::Missing)) {
        return b.kind == Kind::Missing;
    }
    if (is_number(a) && is_number(b)) {
        if (as_number(a) != as_number(b)) {
            return as_number(a) < as_number(b);
        }
        return a.kind == Kind::Integer && b.kind == Kind::Real; // 1 before 1.0: a total order
    }
    if (is_number(a) != is_number(b)) {
        return is_number(a);
    }
    return a.text < b.text;
}

bool group_key_less(const std::vector<AxisValue>& a, const std::vector<AxisValue>& b) {
    return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end(), axis_value_less);
}

std::string_view to_string(Sample::Use use) {
    switch (use) {
    case Sample::Use::Used:
        return "used";
    case Sample::Use::Failed:
        return "failed";
    case Sample::Use::Loaded:
        return "loaded";
    case Sample::Use::NoValue:
        return "no-value";
    }
    return "?";
}

namespace {

// The one statement that reads every selected boot: its sample columns, then one column per
// grouping axis. Placeholders are numbered in the order they appear in the text.
constexpr int k_first_axis_column = 9;

std::string samples_sql(const std::vector<std::string>& axes, const MetricSource& metric,
                        const std::string& filter, std::vector<Binding>& bindings) {
    // An ok boot whose parameters did not take is reported as its own kind of failure.
    std::string text = "SELECT b.id, b.run_id, b.cell_key, b.params_json, "
                       "CASE WHEN b.outcome = 'ok' AND b.params_not_applied IS NOT NULL "
                       "THEN 'param-not-applied' ELSE b.outcome END, "
                       "b.foreign_load, " +
                       metric.sql + ", b.params_not_applied, " + k_loaded_sql;
    if (metric.bound_name) {
        bindings.emplace_back(*metric.bound_name);
    }
    for (const auto& axis : axes) {
        if (axis == k_cell_axis) {
            text += ", b.cell_key";
        } else if (axis == k_run_axis) {
            text += ", b.run_id";
        } else if (axis == k_host_axis) {
            text += std::string(", ") + k_host_sql;
        } else {
            // Quoted label: "srcutree.srcu_max_nodelay_phase" is one key, not a nested path.
            text += ", json_extract(b.params_json, ?)";
            bindings.emplace_back("$.\"" + axis + "\"");
        }
    }
    return text + filter + " ORDER BY b.id";
}

Sample read_sample(SQLite::Statement& boots) {
    Sample sample;
    sample.boot_id = boots.getColumn(0).getInt64();
    sample.run_id = boots.getColumn(1).getInt64();
    sample.cell_key = boots.getColumn(2).getString();
    sample.params_json = boots.getColumn(3).getString();
    sample.outcome = boots.getColumn(4).getString();
    if (!boots.getColumn(5).isNull()) {
        sample.foreign_load = boots.getColumn(5).getDouble();
    }
    if (!boots.getColumn(6).isNull()) {
        sample.value = boots.getColumn(6).getDouble();
    }
    sample.loaded = boots.getColumn(8).getInt() != 0;
    return sample;
}

// A failed boot may still have a value (a hang after the marker keeps its time); it is counted
// as failed, and used only on request — loaded boots likewise, separately.
void add_sample(Sample sample, const SampleQuery& query, SampleGroup& group, SampleSet& set) {
    if (sample.outcome != "ok") {
        sample.use = sample.value && query.include_failed ? Sample::Use::Used : Sample::Use::Failed;
        group.used_failed += sample.use == Sample::Use::Used ? 1 : 0;
    } else if (sample.loaded) {
        sample.use = sample.value && query.include_loaded ? Sample::Use::Used : Sample::Use::Loaded;
        group.used_loaded += sample.use == Sample::Use::Used ? 1 : 0;
    } else {
        sample.use = sample.value ? Sample::Use::Used : Sample::Use::NoValue;
    }
    switch (sample.use) {
    case Sample::Use::Used:
        group.values.push_back(*sample.value);
        ++set.used;
        break;
    case Sample::Use::Failed:
        ++group.failed;
        break;
    case Sample::Use::Loaded:
        ++group.loaded;
        break;
    case Sample::Use::NoValue:
        ++group.no_value;
        break;
    }
    group.samples.push_back(std::move(sample));
    ++set.boots;
}

// The group of the statement's current row, created on first sight.
SampleGroup& group_of(SQLite::Statement& boots, SampleSet& set,
                      std::unordered_map<std::string, size_t>& group_index) {
    std::string key;
    for (size_t axis = 0; axis < set.axes.size(); ++axis) {
        append_key(key, boots.getColumn(k_first_axis_column + static_cast<int>(axis)));
    }
    auto [it, fresh] = group_index.try_emplace(key, set.groups.size());
    if (fresh) {
        SampleGroup group;
        for (size_t axis = 0; axis < set.axes.size(); ++axis) {
            group.key.push_back(
                axis_value(boots.getColumn(k_first_axis_column + static_cast<int>(axis))));
        }
        set.groups.push_back(std::move(group));
    }
    return set.groups[it->second];
}

void require_a_match(const SampleQuery& query, const SampleSet& set) {
    if (set.boots != 0 || query.only.empty()) {
        return;
    }
    std::vector<std::string> filters;
    for (const auto& [axis, values] : query.only) {
        filters.push_back(fmt::format("--only {}={}", axis, fmt::join(values, ",")));
    }
    throw Error(fmt::format("no selected boot matches {} (values are compared as text, "
                            "e.g. hz=250 variant=stock)",
                            fmt::join(filters, " ")));
}

} // namespace

SampleSet query_samples(Database& db, const SampleQuery& query) {
    auto& sql = db.sql();
    const std::string where = db.path().string();
    if (!query.experiment.empty()) {
        check_experiment(sql, query.experiment, where);
    }
    if (!query.run_ids.empty()) {
        check_runs(sql, query.run_ids, where);
    }
    SampleSet set;
    set.metric = query.metric;
    set.include_failed = query.include_failed;
    set.include_loaded = query.include_loaded;
    set.axes = query.by.empty() ? std::vector<std::string>{std::string(k_cell_axis)} : query.by;
    for (const auto& axis : set.axes) {
        check_axis_name(axis);
    }
    const MetricSource metric = metric_source(sql, query.metric, where);
    set.unit = metric.unit;
    set.seconds = metric.seconds;

    std::vector<Binding> filter_bindings;
    const std::string filter = selection_sql(query, filter_bindings);
    std::vector<Binding> bindings;
    const std::string text = samples_sql(set.axes, metric, filter, bindings);
    bindings.insert(bindings.end(), filter_bindings.begin(), filter_bindings.end());
    SQLite::Statement boots(sql, text);
    bind_all(boots, bindings);

    std::unordered_map<std::string, size_t> group_index;
    while (boots.executeStep()) {
        SampleGroup& group = group_of(boots, set, group_index);
        if (!boots.getColumn(7).isNull()) {
            ++set.params_not_applied[boots.getColumn(7).getString()];
        }
        add_sample(read_sample(boots), query, group, set);
    }
    std::sort(set.groups.begin(), set.groups.end(),
              [](const auto& a, const auto& b) { return group_key_less(a.key, b.key); });
    require_a_match(query, set);
    check_axes_exist(set);
    return set;
}

std::string group_label(const std::vector<std::string>& axes, const std::vector<AxisValue>& key) {
    if (axes.size() == 1 && axes.front() == k_cell_axis) {
        return key.front().display();
    }
    std::string label;
    for (size_t i = 0; i < axes.size() && i < key.size(); ++i) {
        label += fmt::format("{}{}={}", label.empty() ? "" : " ", axes[i], key[i].display());
    }
    return label;
}

std::vector<GroupStatistics> summarize_groups(const SampleSet& set,
                                              const EstimateOptions& options) {
    std::vector<GroupStatistics> statistics;
    statistics.reserve(set.groups.size());
    for (const auto& group : set.groups) {
        statistics.push_back(
            {&group, summarize(group.values), median_estimate(group.values, options)});
    }
    return statistics;
}

RunInfo describe_run(Database& db, long long run_id) {
    SQLite::Statement run(db.sql(), "SELECT r.id, coalesce(e.name, ''), r.started_at, r.status, "
                                    "h.hostname FROM runs r JOIN hosts h ON h.id = r.host_id "
                                    "LEFT JOIN experiments e ON e.id = r.experiment_id "
                                    "WHERE r.id = ?");
    run.bind(1, static_cast<int64_t>(run_id));
    if (!run.executeStep()) {
        check_runs(db.sql(), {run_id}, db.path().string()); // names the runs there are
        throw Error(fmt::format("no run {} in {}", run_id, db.path().string()));
    }
    return {run.getColumn(0).getInt64(), run.getColumn(1).getString(), run.getColumn(2).getString(),
            run.getColumn(3).getString(), run.getColumn(4).getString()};
}

namespace {

// Holm over the groups compared, the verdicts from the adjusted p-values, then the tallies.
void decide_as_family(ComparisonSet& result, const EstimateOptions& options, double threshold) {
    std::vector<double> p_values;
    for (const auto& entry : result.groups) {
        if (entry.a && entry.b) {
            p_values.push_back(entry.comparison.p_value);
        }
    }
    const auto adjusted = stats::holm_adjust(p_values);
    size_t next = 0;
    double log_sum = 0;
    for (auto& entry : result.groups) {
        Comparison& c = entry.comparison;
        if (entry.a && entry.b) {
            c.p_adjusted = adjusted[next++];
            c.verdict = decide_verdict(c, c.p_adjusted, options.alpha, threshold);
        }
        switch (c.verdict) {
        case Comparison::Verdict::Faster:
            ++result.faster;
            break;
        case Comparison::Verdict::Slower:
            ++result.slower;
            break;
        case Comparison::Verdict::NoChange:
            ++result.no_change;
            break;
        case Comparison::Verdict::Insufficient:
            ++result.insufficient;
            break;
        }
        if (c.verdict != Comparison::Verdict::Insufficient && c.ratio > 0) {
            log_sum += std::log(c.ratio);
            ++result.geomean_groups;
        }
    }
    if (result.geomean_groups > 0) {
        result.geomean_ratio = std::exp(log_sum / result.geomean_groups);
    }
}

} // namespace

ComparisonSet compare_sample_sets(const SampleSet& a, const SampleSet& b,
                                  const EstimateOptions& options, double threshold) {
    if (a.axes != b.axes) {
        throw std::invalid_argument("compare_sample_sets: both sets must be grouped alike");
    }
    ComparisonSet result;
    result.metric = a.metric;
    result.unit = a.unit;
    result.seconds = a.seconds;
    result.axes = a.axes;
    result.threshold = threshold;
    result.alpha = options.alpha;
    // Both group lists are sorted by key: merge them.
    size_t i = 0;
    size_t j = 0;
    while (i < a.groups.size() || j < b.groups.size()) {
        GroupComparison entry;
        if (j == b.groups.size() ||
            (i < a.groups.size() && group_key_less(a.groups[i].key, b.groups[j].key))) {
            entry.a = &a.groups[i++];
        } else if (i == a.groups.size() || group_key_less(b.groups[j].key, a.groups[i].key)) {
            entry.b = &b.groups[j++];
        } else {
            entry.a = &a.groups[i++];
            entry.b = &b.groups[j++];
        }
        entry.key = entry.a ? entry.a->key : entry.b->key;
        if (entry.a && entry.b) {
            entry.comparison =
                compare_medians(entry.a->values, entry.b->values, options, threshold);
        } else {
            // One side only: nothing to compare, but its median is still worth showing.
            Comparison& c = entry.comparison;
            const SampleGroup& present = entry.a ? *entry.a : *entry.b;
            const double median = present.values.empty() ? std::numeric_limits<double>::quiet_NaN()
                                                         : median_of(present.values);
            (entry.a ? c.n_a : c.n_b) = static_cast<int>(present.values.size());
            (entry.a ? c.median_a : c.median_b) = median;
            result.only_a += entry.a ? 1 : 0;
            result.only_b += entry.b ? 1 : 0;
        }
        result.groups.push_back(std::move(entry));
    }
    decide_as_family(result, options, threshold);
    return result;
}

} // namespace bb
