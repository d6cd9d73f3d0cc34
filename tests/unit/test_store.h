#pragma once
// A file-backed results database with a host, for the unit tests of what reads it (reports,
// the verdict, the precision rule): runs and boots are added by the tests.
#include "store/boot_store.h"
#include "test_support.h"

#include <optional>
#include <string>
#include <vector>

namespace bb::test {

// A boot with every column the store requires filled in plainly; the cell key is the parameter
// set (unique per set, as the runner's is), and each (run, cell, repeat) is stored once.
inline bb::BootRecord plain_boot_record(long long run_id, const std::string& params_json,
                                        int repeat_index) {
    bb::BootRecord record;
    record.run_id = run_id;
    record.params_json = params_json;
    record.cell_key = params_json;
    record.repeat_index = repeat_index;
    record.arch = "arm64";
    record.machine = "virt";
    record.smp = 1;
    record.memory_mb = 256;
    record.kernel_path = "/k/Image";
    record.kernel_sha256 = std::string(64, 'a');
    record.cmdline = "quiet";
    record.argv = {"qemu-system-aarch64"};
    record.accel = "tcg";
    record.accel_reason = "test";
    return record;
}

using bb::BootOutcome;

struct Store {
    bb::test::TempDir dir;
    bb::Database db{dir / "results.sqlite"};
    bb::BootStore store{db};
    long long host = 0;
    int next_repeat = 0;

    Store() {
        const bb::HostFacts facts = bb::test::bench_host_facts();
        host = store.ensure_host(facts);
    }

    long long run(const std::string& experiment,
                  std::optional<std::string> analysis_json = std::nullopt) {
        bb::RunStart start;
        start.mode = "adhoc";
        start.analysis_json = std::move(analysis_json);
        if (!experiment.empty()) {
            start.experiment_id = store.ensure_experiment(experiment, "name: " + experiment);
        }
        return store.begin_run(host, start);
    }

    long long boot(long long run_id, const std::string& params_json, std::optional<double> seconds,
                   BootOutcome outcome = BootOutcome::Ok, std::optional<double> foreign_load = 0.0,
                   std::vector<bb::MetricSample> metrics = {},
                   std::optional<bool> loaded = std::nullopt) {
        return store.insert_boot(record(run_id, params_json, seconds, outcome, foreign_load,
                                        std::move(metrics), loaded));
    }

    // The record boot() stores, for a test that sets more of it (a round: repeat_index).
    bb::BootRecord record(long long run_id, const std::string& params_json,
                          std::optional<double> seconds, BootOutcome outcome = BootOutcome::Ok,
                          std::optional<double> foreign_load = 0.0,
                          std::vector<bb::MetricSample> metrics = {},
                          std::optional<bool> loaded = std::nullopt) {
        bb::BootRecord record = plain_boot_record(run_id, params_json, next_repeat++);
        record.foreign_load = foreign_load;
        record.loaded = loaded;
        record.outcome = outcome;
        record.outcome_reason = "test";
        record.boot_seconds = seconds;
        record.wall_seconds = 9.5;
        record.started_at = "2024-01-01T00:00:00.000Z";
        record.metrics = std::move(metrics);
        return record;
    }
};

} // namespace bb::test
