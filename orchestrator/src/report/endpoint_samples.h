#pragma once
// One value per boot of a run for a declared endpoint (boot_seconds, a metric, or the boot's
// geomean over `<prefix>.*` items), with what the verdict, the precision rule and `plan` need
// to group and pair it: the boot's cell, parameters, round (repeat index) and whether it is
// used (v_samples.used: ok, not loaded, parameters applied).
#include "experiment/analysis.h"
#include "store/database.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace bb {

struct EndpointBoot {
    std::string cell_key;
    nlohmann::json params; // the cell's axis values
    int round = 0;         // repeat index: the runner boots every cell once per round
    bool used = false;
    std::optional<double> value; // none: the boot did not produce the endpoint
    double wall_seconds = 0;
};

// Every boot of the run that counts as a sample (infra errors are attempts, not samples), in
// boot order; `cell_key` non-empty: only that cell's. For a geomean endpoint the item set is
// every item any used boot of the run printed: a boot missing one has no value.
std::vector<EndpointBoot> endpoint_boots(Database& db, long long run_id, const Endpoint& endpoint,
                                         const std::string& cell_key = "");

// The values of the used boots that have one.
std::vector<double> used_values(const std::vector<EndpointBoot>& boots);

} // namespace bb
