#pragma once
#include "store/database.h"

#include <nlohmann/json.hpp>
#include <string>

namespace bb {

// Per-cell results of one run, read back from the store: boots and outcomes, boot time
// (median, mean ± σ, min…max of the ok boots) and the median of every metric.
// A run spread over several hosts has one result per cell and host: boot times of different
// machines are never pooled.
struct CellResult {
    std::string cell_key;
    std::string host; // libvirt URI or hostname; empty when the run used one host
    nlohmann::json params;
    int boots = 0;
    int ok = 0;
    int contaminated = 0; // ok boots under foreign load (excluded)
    std::vector<double> boot_seconds;
    std::vector<long long> boot_ids; // of boot_seconds' boots, in the same order
    std::map<std::string, std::vector<double>> metrics;
    std::map<std::string, std::string> metric_units;
};

std::vector<CellResult> load_run_results(Database& db, long long run_id);
// One line per cell within the terminal's width (the metrics that fit, then "+N more"), then
// the noise warnings (report/noise_warnings.h) of any noisy cell.
std::string render_run_summary(const std::vector<CellResult>& cells);
nlohmann::json run_summary_json(const std::vector<CellResult>& cells);

} // namespace bb
