#include "store/sample_selection.h"

#include "store/run_queries.h"
#include "store/sql_binding.h"
#include "util/did_you_mean.h"
#include "util/error.h"

#include <algorithm>
#include <array>
#include <fmt/format.h>

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

constexpr const char* k_host_sql = "(SELECT coalesce(h.libvirt_uri, h.hostname) FROM hosts h "
                                   "WHERE h.id = coalesce(b.host_id, (SELECT r2.host_id FROM "
                                   "runs r2 WHERE r2.id = b.run_id)))";

void require_experiment(SQLite::Database& db, const std::string& name, const std::string& where) {
    SQLite::Statement names(db, "SELECT DISTINCT name FROM experiments ORDER BY name");
    std::vector<std::string> known;
    while (names.executeStep()) {
        known.push_back(names.getColumn(0).getString());
    }
    if (std::find(known.begin(), known.end(), name) != known.end()) {
        return;
    }
    throw Error(fmt::format("no experiment named '{}' in {}{}; experiments there: {}", name, where,
                            did_you_mean_note(name, known),
                            known.empty() ? "none (only ad-hoc boots)"
                                          : fmt::format("{}", fmt::join(known, ", "))));
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
                                did_you_mean_note(metric, known), fmt::join(known, ", ")));
    }
    // A guest may print the same metric twice; the first value printed is the boot's.
    return {"(SELECT m.value FROM metrics m WHERE m.boot_id = b.id AND m.name = ? "
            "ORDER BY m.id LIMIT 1)",
            metric, unit.getColumn(0).getString(), unit.getColumn(0).getString() == "s"};
}

std::string json_label(std::string_view axis) {
    // Quoted label: "srcutree.srcu_max_nodelay_phase" is one key, not a nested path.
    return "$.\"" + std::string(axis) + "\"";
}

// " FROM boots b … WHERE …" for the query's experiment, runs and --only filters; shared by
// every statement that reads the same selection.
// Whether a boot is loaded or used is defined once, by the v_samples view (schema 8), which
// holds every boot: its `s.` columns are the classification every reader gets. Warm-up boots
// (negative repeats, schema 14) are not samples of their cell at all: no report counts them,
// not even among the boots it left out. The test is on the column, not v_samples.warmup, so a
// file of schema 10–13 reads the same.
std::string selection_sql(const SampleQuery& query, std::vector<SqlBinding>& bindings) {
    std::string filter =
        " FROM boots b JOIN v_samples s ON s.boot_id = b.id WHERE b.repeat_index >= 0";
    if (!query.experiment.empty()) {
        filter += " AND s.experiment = ?";
        bindings.emplace_back(query.experiment);
    }
    if (!query.run_ids.empty()) {
        filter += " AND b.run_id IN (" + sql_placeholders(query.run_ids.size()) + ")";
        bindings.insert(bindings.end(), query.run_ids.begin(), query.run_ids.end());
    }
    for (const auto& [axis, values] : query.only) {
        require_quotable_axis(axis);
        if (values.empty()) {
            continue;
        }
        if (axis == k_cell_axis) {
            filter += " AND b.cell_key";
        } else if (axis == k_run_axis) {
            filter += " AND CAST(b.run_id AS TEXT)";
        } else {
            filter += " AND CAST(json_extract(b.params_json, ?) AS TEXT)";
            bindings.emplace_back(json_label(axis));
        }
        filter += " IN (" + sql_placeholders(values.size()) + ")";
        bindings.insert(bindings.end(), values.begin(), values.end());
    }
    return filter;
}

// The one statement that reads every selected boot: its sample columns, then one column per
// grouping axis. Placeholders are numbered in the order they appear in the text.
constexpr int k_first_axis_column = 13;

std::string samples_sql(const std::vector<std::string>& axes, const MetricSource& metric,
                        std::vector<SqlBinding>& bindings) {
    // An ok boot whose parameters did not take is reported as its own kind of failure.
    std::string text = "SELECT b.id, b.run_id, b.cell_key, b.params_json, "
                       "CASE WHEN b.outcome = 'ok' AND b.params_not_applied IS NOT NULL "
                       "THEN 'param-not-applied' ELSE b.outcome END, "
                       "b.foreign_load, " +
                       metric.sql + ", b.params_not_applied, s.loaded, s.used, b.repeat_index, " +
                       "b.wall_seconds, " + k_host_sql;
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
            text += ", json_extract(b.params_json, ?)";
            bindings.emplace_back(json_label(axis));
        }
    }
    return text;
}

SelectedBoot read_boot(SQLite::Statement& row, size_t axes) {
    SelectedBoot boot;
    boot.boot_id = row.getColumn(0).getInt64();
    boot.run_id = row.getColumn(1).getInt64();
    boot.cell_key = row.getColumn(2).getString();
    boot.params_json = row.getColumn(3).getString();
    boot.outcome = row.getColumn(4).getString();
    if (!row.getColumn(5).isNull()) {
        boot.foreign_load = row.getColumn(5).getDouble();
    }
    if (!row.getColumn(6).isNull()) {
        boot.value = row.getColumn(6).getDouble();
    }
    if (!row.getColumn(7).isNull()) {
        boot.params_not_applied = row.getColumn(7).getString();
    }
    boot.loaded = row.getColumn(8).getInt() != 0;
    boot.used = row.getColumn(9).getInt() != 0;
    boot.repeat_index = row.getColumn(10).getInt();
    boot.wall_seconds = row.getColumn(11).isNull() ? 0 : row.getColumn(11).getDouble();
    boot.host = row.getColumn(12).getString();
    for (size_t axis = 0; axis < axes; ++axis) {
        boot.key.push_back(sql_value(row.getColumn(k_first_axis_column + static_cast<int>(axis))));
    }
    return boot;
}

} // namespace

void require_quotable_axis(std::string_view name) {
    if (name.find('"') != std::string_view::npos) {
        throw Error(fmt::format("--by: axis name {} contains a double quote, which no "
                                "experiment parameter can",
                                name));
    }
}

SampleSelection select_samples(Database& db, const SampleQuery& query) {
    auto& sql = db.sql();
    const std::string where = db.path().string();
    if (!query.experiment.empty()) {
        require_experiment(sql, query.experiment, where);
    }
    require_runs(db, query.run_ids);
    SampleSelection selection;
    selection.axes =
        query.by.empty() ? std::vector<std::string>{std::string(k_cell_axis)} : query.by;
    for (const auto& axis : selection.axes) {
        require_quotable_axis(axis);
    }
    const MetricSource metric = metric_source(sql, query.metric, where);
    selection.unit = metric.unit;
    selection.seconds = metric.seconds;

    std::vector<SqlBinding> bindings;
    std::string text = samples_sql(selection.axes, metric, bindings);
    text += selection_sql(query, bindings) + " ORDER BY b.id";
    SQLite::Statement boots(sql, text);
    bind_all(boots, bindings);
    while (boots.executeStep()) {
        selection.boots.push_back(read_boot(boots, selection.axes.size()));
    }
    return selection;
}

std::vector<SelectedBoot> run_boots(Database& db, long long run_id) {
    SampleQuery query;
    query.run_ids = {run_id};
    return select_samples(db, query).boots;
}

int hosts_in_selection(Database& db, const SampleQuery& query) {
    std::vector<SqlBinding> bindings;
    const std::string filter = selection_sql(query, bindings);
    SQLite::Statement hosts(db.sql(),
                            std::string("SELECT count(DISTINCT ") + k_host_sql + ")" + filter);
    bind_all(hosts, bindings);
    return hosts.executeStep() ? hosts.getColumn(0).getInt() : 0;
}

std::vector<std::string> axis_values_selected(Database& db, SampleQuery query,
                                              std::string_view axis) {
    require_quotable_axis(axis);
    query.only.clear();
    std::vector<SqlBinding> bindings;
    std::string value = "CAST(json_extract(b.params_json, ?) AS TEXT)";
    if (axis == k_cell_axis) {
        value = "b.cell_key";
    } else if (axis == k_run_axis) {
        value = "CAST(b.run_id AS TEXT)";
    } else if (axis == k_host_axis) {
        value = k_host_sql;
    } else {
        bindings.emplace_back(json_label(axis)); // the first placeholder in the text
    }
    const std::string filter = selection_sql(query, bindings);
    SQLite::Statement select(db.sql(), "SELECT DISTINCT " + value + filter + " ORDER BY 1");
    bind_all(select, bindings);
    std::vector<std::string> values;
    while (select.executeStep()) {
        if (!select.getColumn(0).isNull()) {
            values.push_back(select.getColumn(0).getString());
        }
    }
    return values;
}

std::vector<LostHost> lost_hosts(Database& db, const SampleQuery& query) {
    std::vector<SqlBinding> bindings;
    const std::string filter = selection_sql(query, bindings);
    SQLite::Statement select(
        db.sql(), std::string("SELECT ") + k_host_sql + ", count(*), min(b.outcome_reason)" +
                      filter +
                      " AND b.outcome = 'infra-error' AND b.outcome_reason LIKE 'host % stopped "
                      "answering%' GROUP BY 1 ORDER BY 1");
    bind_all(select, bindings);
    std::vector<LostHost> lost;
    while (select.executeStep()) {
        lost.push_back({select.getColumn(0).getString(), select.getColumn(1).getInt(),
                        select.getColumn(2).getString()});
    }
    return lost;
}

} // namespace bb
