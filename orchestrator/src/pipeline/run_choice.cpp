#include "pipeline/run_choice.h"

#include "util/error.h"
#include "util/hash.h"
#include "util/paths.h"

#include <fmt/format.h>
#include <random>

namespace bb {

namespace {
StoredRun resume_target(BootStore& store, const Experiment& experiment, long long run_id) {
    const auto run = store.run_identity(run_id);
    if (!run) {
        throw Error(fmt::format("--resume {}: no such run", run_id));
    }
    if (run->experiment_name != experiment.name) {
        throw Error(fmt::format("--resume {}: that run belongs to experiment '{}', not '{}'",
                                run_id, run->experiment_name, experiment.name));
    }
    return *run;
}

void require_same_content(const StoredRun& run, const Experiment& experiment,
                          long long experiment_id) {
    if (run.experiment_id == experiment_id) {
        return;
    }
    throw Error(fmt::format(
        "{}: run {} of '{}' (seed {}) was started from different content of this file "
        "(sha256 {} then, {} now); resuming it would mix two designs in one run. Restore the "
        "file to resume run {}, or start a new run with another --seed",
        experiment.file_name, run.run_id, run.experiment_name, run.seed,
        run.experiment_sha256.substr(0, 12), sha256_hex(experiment.text).substr(0, 12),
        run.run_id));
}
} // namespace

std::uint64_t choose_seed(BootStore& store, const Experiment& experiment,
                          const RunOptions& options) {
    if (options.resume_run) {
        return static_cast<std::uint64_t>(
            resume_target(store, experiment, *options.resume_run).seed);
    }
    if (options.seed) {
        return *options.seed;
    }
    if (experiment.seed && !options.fresh_run) {
        return *experiment.seed;
    }
    return std::random_device{}() & 0x7fffffff;
}

std::optional<long long> find_resumable_run(BootStore& store, const Experiment& experiment,
                                            long long experiment_id, std::uint64_t seed,
                                            const RunOptions& options) {
    if (options.resume_run) {
        const StoredRun run = resume_target(store, experiment, *options.resume_run);
        require_same_content(run, experiment, experiment_id);
        return run.run_id;
    }
    if (options.fresh_run) {
        return std::nullopt;
    }
    const auto previous =
        store.find_run(experiment.name, static_cast<long long>(seed), options.mode);
    if (!previous) {
        return std::nullopt;
    }
    require_same_content(*previous, experiment, experiment_id);
    return previous->run_id;
}

std::filesystem::path run_lock_path(const std::filesystem::path& database,
                                    const std::string& experiment_name, std::uint64_t seed,
                                    const std::string& mode) {
    const std::string identity =
        fmt::format("{}\n{}\n{}\n{}", std::filesystem::weakly_canonical(database).string(),
                    experiment_name, seed, mode);
    return cache_dir() / "locks" / ("run-" + sha256_hex(identity).substr(0, 16) + ".lock");
}

} // namespace bb
