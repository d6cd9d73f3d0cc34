#pragma once
// Which run a `bootbench run` continues, and with which seed. A run is resumed only when it is
// the same design: the same experiment file content, seed and mode. A nightly never resumes.
#include "experiment/experiment.h"
#include "pipeline/experiment_runner.h"
#include "store/boot_store.h"

#include <cstdint>
#include <filesystem>
#include <optional>

namespace bb {

// The seed of this run: --resume's run's, else --seed, else the file's (unless the run must be
// fresh), else a new random one.
std::uint64_t choose_seed(BootStore& store, const Experiment& experiment,
                          const RunOptions& options);

// The run to continue, if any. Throws Error when the run that --resume names, or the one the
// seed finds, was started from different experiment content: resuming it would mix two designs.
std::optional<long long> find_resumable_run(BootStore& store, const Experiment& experiment,
                                            long long experiment_id, std::uint64_t seed,
                                            const RunOptions& options);

// One lock per (database, experiment, seed, mode): two processes never boot one run at once.
std::filesystem::path run_lock_path(const std::filesystem::path& database,
                                    const std::string& experiment_name, std::uint64_t seed,
                                    const std::string& mode);

} // namespace bb
