#pragma once
// What guests printed, read back: metric values (BOOTBENCH-METRIC lines) and histogram buckets
// (BOOTBENCH-HIST lines), by name, by item prefix ("launch." for launch.camera, …) or by run.
// Rows come in the order they were stored, so "a boot's value is the first it printed" is the
// caller's try_emplace.
#include "store/database.h"

#include <string>
#include <string_view>
#include <vector>

namespace bb {

struct MetricRow {
    long long boot_id = 0;
    std::string name;
    double value = 0;
    std::string unit;
};

// Every metric row of a run's boots.
std::vector<MetricRow> run_metrics(Database& db, long long run_id);
// A run's rows of one metric, or (prefix) of every metric whose name starts with `name`.
std::vector<MetricRow> run_metric(Database& db, long long run_id, const std::string& name);
std::vector<MetricRow> run_metric_items(Database& db, long long run_id, const std::string& prefix);
// Every boot's rows of one metric, whatever its run.
std::vector<MetricRow> metric_rows(Database& db, const std::string& name);

// Distinct metric names starting with `prefix` (compared literally: '_' and '%' are no
// wildcards), sorted.
std::vector<std::string> metric_names_with_prefix(Database& db, const std::string& prefix);
// The parts before the first '.' of every dotted metric name, sorted and distinct.
std::vector<std::string> metric_item_prefixes(Database& db);

struct HistogramRow {
    long long boot_id = 0;
    double lo = 0;
    double hi = 0;
    long long count = 0;
};

std::vector<std::string> histogram_names(Database& db); // distinct, sorted
// Every boot's buckets of one histogram, by boot and bucket.
std::vector<HistogramRow> histogram_rows(Database& db, const std::string& name);

} // namespace bb
