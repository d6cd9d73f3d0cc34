#pragma once
// The experiment one `bootbench bisect` step runs (docs/bisect.md): the experiment file with
// its series variant replaced by the step's prefixes of that variant's patches, `prefix-OLDER`,
// `prefix-NEWER` (and a middle step's `prefix-UPPER`), each keeping the variant's fragments,
// set and cmdline; `repeats: 1` (the step's round planner books every further round, so
// --max-boots is no part of the design and a larger one continues an undecided step); an
// analysis comparing them by their shifts (at the verdict's usual α: the bisect's own α and
// looks are no part of the design either), so `bootbench report --view verdict` reads a step
// like any run. It is written out as YAML and parsed like a file (its text is what the run
// stores), named by step_experiment_name: re-running the same bisect finds each step's run
// again by that name, content and seed.
#include "bisect/bisection.h"
#include "experiment/analysis.h"
#include "experiment/experiment.h"

#include <cstdint>
#include <string>

namespace bb {

// The variant whose patches are the series: `requested`, or the only variant with patches.
// Throws Error naming the variants when there is no such variant or the choice is ambiguous.
const Variant& series_variant(const Experiment& experiment, const std::string& requested);

struct StepDesign {
    const Variant* series = nullptr;
    Endpoint endpoint;
    std::uint64_t seed = 0;
};

std::string prefix_name(int prefix); // "prefix-3"
// "prefix-4 vs prefix-0", "prefix-2 vs prefix-0 and prefix-4"
std::string step_label(const BisectStep& step);
// "delay-bisect-0v4", "delay-bisect-0v2v4"
std::string step_experiment_name(const std::string& name, const BisectStep& step);

// The step's experiment; its cells are prefix-OLDER's, prefix-NEWER's, then prefix-UPPER's.
Experiment step_experiment(const Experiment& experiment, const StepDesign& design,
                           const BisectStep& step);

} // namespace bb
