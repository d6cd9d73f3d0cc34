#include "store/metric_queries.h"

namespace bb {

namespace {

// Every statement here selects (boot_id, name, value, unit) and binds its own parameters.
std::vector<MetricRow> read_metric_rows(SQLite::Statement& select) {
    std::vector<MetricRow> rows;
    while (select.executeStep()) {
        rows.push_back({select.getColumn(0).getInt64(), select.getColumn(1).getString(),
                        select.getColumn(2).getDouble(), select.getColumn(3).getString()});
    }
    return rows;
}

std::vector<std::string> first_column(SQLite::Statement& select) {
    std::vector<std::string> values;
    while (select.executeStep()) {
        values.push_back(select.getColumn(0).getString());
    }
    return values;
}

constexpr const char* k_run_metrics_sql = "SELECT m.boot_id, m.name, m.value, m.unit FROM "
                                          "metrics m JOIN boots b ON b.id = m.boot_id "
                                          "WHERE b.run_id = ?1";

} // namespace

std::vector<MetricRow> run_metrics(Database& db, long long run_id) {
    SQLite::Statement select(db.sql(), std::string(k_run_metrics_sql) + " ORDER BY m.id");
    select.bind(1, static_cast<int64_t>(run_id));
    return read_metric_rows(select);
}

std::vector<MetricRow> run_metric(Database& db, long long run_id, const std::string& name) {
    SQLite::Statement select(db.sql(),
                             std::string(k_run_metrics_sql) + " AND m.name = ?2 ORDER BY m.id");
    select.bind(1, static_cast<int64_t>(run_id));
    select.bind(2, name);
    return read_metric_rows(select);
}

std::vector<MetricRow> run_metric_items(Database& db, long long run_id, const std::string& prefix) {
    SQLite::Statement select(db.sql(), std::string(k_run_metrics_sql) +
                                           " AND substr(m.name, 1, length(?2)) = ?2 ORDER BY m.id");
    select.bind(1, static_cast<int64_t>(run_id));
    select.bind(2, prefix);
    return read_metric_rows(select);
}

std::vector<MetricRow> metric_rows(Database& db, const std::string& name) {
    SQLite::Statement select(db.sql(), "SELECT boot_id, name, value, unit FROM metrics "
                                       "WHERE name = ? ORDER BY id");
    select.bind(1, name);
    return read_metric_rows(select);
}

std::vector<std::string> metric_names_with_prefix(Database& db, const std::string& prefix) {
    // substr, not LIKE: '_' and '%' in a prefix are literal characters.
    SQLite::Statement select(db.sql(), "SELECT DISTINCT name FROM metrics "
                                       "WHERE substr(name, 1, length(?1)) = ?1 ORDER BY name");
    select.bind(1, prefix);
    return first_column(select);
}

std::vector<std::string> metric_item_prefixes(Database& db) {
    SQLite::Statement select(db.sql(), "SELECT DISTINCT substr(name, 1, instr(name, '.') - 1) "
                                       "FROM metrics WHERE instr(name, '.') ORDER BY 1");
    return first_column(select);
}

std::vector<std::string> histogram_names(Database& db) {
    SQLite::Statement select(db.sql(), "SELECT DISTINCT name FROM histograms ORDER BY name");
    return first_column(select);
}

std::vector<HistogramRow> histogram_rows(Database& db, const std::string& name) {
    SQLite::Statement select(db.sql(), "SELECT boot_id, lo, hi, count FROM histograms "
                                       "WHERE name = ? ORDER BY boot_id, lo");
    select.bind(1, name);
    std::vector<HistogramRow> rows;
    while (select.executeStep()) {
        rows.push_back({select.getColumn(0).getInt64(), select.getColumn(1).getDouble(),
                        select.getColumn(2).getDouble(), select.getColumn(3).getInt64()});
    }
    return rows;
}

} // namespace bb
