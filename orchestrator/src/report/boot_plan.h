#pragma once
// `bootbench plan FILE --pilot RUN`: boots per cell for the declared analysis to detect a given
// effect with a given power, from a pilot run's spread, and what that costs in wall time on
// this host. The power comes from simulating the exact test (stats/sample_size.h) at the
// per-test level Holm starts from (α / family size: its first, most stringent step).
#include "experiment/experiment.h"
#include "stats/sample_size.h"
#include "store/database.h"

#include <string>
#include <utility>
#include <vector>

namespace bb {

struct PilotSpread {
    std::vector<std::pair<std::string, double>> cell_sigma; // cell -> 1.4826 × MAD of log values
    double pooled_sigma = 0; // pooled SD of the logs around each cell's mean (NaN: none)
    // What the plan uses: the largest cell's, so that it holds for every cell, but never less
    // than the pooled SD (a 3-boot cell's MAD can be 0 although its boots differ).
    double sigma = 0;
    double median_wall_s = 0; // of the pilot's used boots (spawn to exit)
    int boots = 0;            // used boots with the endpoint
    // Cells the spread could not use, each with why ("hz=250 (3 used boots: a value not
    // finite or not > 0)"): printed, so that no cell is left out without a word.
    std::vector<std::string> left_out;
};

// Error when the pilot has no cell with at least 2 used boots of the endpoint.
PilotSpread pilot_spread(Database& db, long long run_id, const Endpoint& endpoint);

// The comparisons Holm's correction runs over: every (condition, pair) of the file, or the pairs
// of one condition (family: condition). 1 without an analysis.
int family_size(const Experiment& experiment);

struct PlanRequest {
    double sigma_log = 0;
    double effect = 0.05; // relative: 0.05 detects B / A = 1.05
    // > 0: plan for precision instead: B / A's interval at most ± this (0.02: ±2 %) with
    // probability `power`. The interval is the verdict's, at 1 − α per comparison (Holm adjusts
    // the p-values, not the intervals), so α is not divided by the family.
    double half_width = 0;
    double power = 0.8;
    double alpha = 0.05;
    int family = 1;
    bool paired = false; // the analysis pairs boots by round
    double median_wall_s = 0;
    int cells = 1;
    int slots = 1;
};

struct BootPlan {
    double alpha_per_test = 0;  // α / family (a half-width plan: α, the interval's 1 − level)
    stats::SampleSizePlan size; // boots per cell
    double wall_seconds = 0;    // median wall × cells × boots / slots; 0 without an answer
};

BootPlan plan_boots(const PlanRequest& request);

} // namespace bb
