#pragma once
// The record stage of a run (docs/architecture.md, "A sample's way"): the one place a booted
// sample is completed (quiet-gate verdict, metrics extracted from its console, L1's timings),
// classified (failed, loaded, parameter not applied), stored, counted and announced.
#include "console/metric_extractor.h"
#include "experiment/experiment.h"
#include "experiment/matrix.h"
#include "pipeline/sample_scheduler.h"
#include "schedule/quiet_settings.h"
#include "store/boot_store.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace bb {

struct RecordCounts {
    int stored = 0;
    int failed = 0;       // not ok, or a parameter that did not take
    int infra_failed = 0; // of them, infra-error: bootbench could not boot the guest
    int loaded = 0;       // stored as loaded (schema 8): left out of statistics
};

// A sample as stored: its row id (0 when another process had stored it first), its record
// and the line `bootbench run` prints for it.
struct StoredSample {
    long long boot_id = 0;
    const BootRecord& boot;
    std::string line;
};

class SampleRecorder {
  public:
    struct Sinks {
        std::function<void(const std::string&)> note;    // warnings
        std::function<void(const StoredSample&)> sample; // each stored sample
        // How lines name a sample; default "CELL-KEY rN".
        std::function<std::string(const SampleRef&)> label;
    };
    SampleRecorder(BootStore& store, long long run_id, const Experiment& experiment,
                   const std::vector<Cell>& cells, const QuietSettings& quiet, Sinks sinks);

    // Completes and stores a booted sample and prints its line (`host_label` when the run
    // spans several hosts); true when it failed.
    bool record(BootRecord& boot, const SampleRef& sample, const std::string& host_label,
                const std::optional<QuietVerdict>& verdict);
    // Stores the attempt of a sample whose host stopped answering, the reason in its outcome.
    void record_lost(BootRecord& boot, const SampleRef& sample, const std::string& host_label,
                     const std::optional<QuietVerdict>& verdict, const std::string& why);

    const RecordCounts& counts() const { return m_counts; }

  private:
    void complete(BootRecord& boot, const SampleRef& sample,
                  const std::optional<QuietVerdict>& verdict);
    long long store(const BootRecord& boot);
    std::string describe(const BootRecord& boot, const std::optional<QuietVerdict>& verdict) const;

    BootStore& m_store;
    long long m_run_id;
    const std::vector<Cell>& m_cells;
    const QuietSettings& m_quiet;
    std::vector<LineExtractor> m_extractors;
    Sinks m_sinks;
    RecordCounts m_counts;
};

} // namespace bb
