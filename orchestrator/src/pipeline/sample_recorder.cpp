#include "pipeline/sample_recorder.h"

#include "pipeline/boot_host_conditions.h"
#include "pipeline/nested_boot.h"
#include "pipeline/quiet_sample.h"
#include "store/sample_rule.h"
#include "util/units.h"

#include <algorithm>
#include <fmt/format.h>
#include <iterator>

namespace bb {

namespace {

std::vector<LineExtractor> extractors_of(const Experiment& experiment) {
    std::vector<LineExtractor> extractors;
    for (const auto& metric : experiment.guest.metrics) {
        extractors.push_back({metric.name, metric.regex, metric.unit, metric.histogram,
                              metric.scale, metric.bucket});
    }
    return extractors;
}

} // namespace

SampleRecorder::SampleRecorder(BootStore& store, long long run_id, const Experiment& experiment,
                               const std::vector<Cell>& cells, const QuietSettings& quiet,
                               Sinks sinks)
    : m_store(store), m_run_id(run_id), m_cells(cells), m_quiet(quiet),
      m_extractors(extractors_of(experiment)), m_sinks(std::move(sinks)) {}

bool SampleRecorder::record(BootRecord& boot, const SampleRef& sample,
                            const std::string& host_label,
                            const std::optional<QuietVerdict>& verdict) {
    complete(boot, sample, verdict);
    const long long boot_id = store(boot);
    const bool failed = boot.outcome != BootOutcome::Ok || boot.params_not_applied;
    const bool loaded = boot.loaded.value_or(false);
    ++m_counts.stored;
    m_counts.failed += failed ? 1 : 0;
    m_counts.infra_failed += boot.outcome == BootOutcome::InfraError ? 1 : 0;
    m_counts.loaded += loaded ? 1 : 0;
    const std::string label =
        m_sinks.label ? m_sinks.label(sample)
                      : fmt::format("{} {}", boot.cell_key, repeat_label(sample.second));
    if (boot.params_not_applied) {
        m_sinks.note(fmt::format("warning: {}: {} — the sample is stored but not used; check "
                                 "the parameter's name and the kernel's config",
                                 label, *boot.params_not_applied));
    }
    m_sinks.sample(
        {boot_id, boot,
         label + (host_label.empty() ? "" : " @" + host_label) + ": " + describe(boot, verdict)});
    return failed;
}

void SampleRecorder::record_lost(BootRecord& boot, const SampleRef& sample,
                                 const std::string& host_label,
                                 const std::optional<QuietVerdict>& verdict,
                                 const std::string& why) {
    complete(boot, sample, verdict);
    if (boot.outcome_reason.find(host_label) == std::string::npos) {
        boot.outcome_reason =
            fmt::format("host {} stopped answering: {} ({})", host_label, why, boot.outcome_reason);
    }
    store(boot);
}

// The run's and the cell's part of the record, the gate's verdict, and the metrics found in
// the console.
void SampleRecorder::complete(BootRecord& boot, const SampleRef& sample,
                              const std::optional<QuietVerdict>& verdict) {
    const Cell& cell = m_cells[sample.first];
    boot.run_id = m_run_id;
    boot.cell_key = cell.cell_key;
    boot.params_json = cell.params.dump();
    boot.repeat_index = sample.second;
    record_quiet(boot, m_quiet, verdict);
    boot.host_conditions_json = boot_host_conditions(boot);
    if (cell.topology == Topology::Nested) {
        add_l1_metrics(boot);
    }
    auto extracted = extract_metrics(boot.console_log, m_extractors);
    std::move(extracted.metrics.begin(), extracted.metrics.end(), std::back_inserter(boot.metrics));
    std::move(extracted.histograms.begin(), extracted.histograms.end(),
              std::back_inserter(boot.histograms));
    if (extracted.lines_cut > 0) {
        // The console is stored as always; only the metric search saw less of it.
        m_sinks.note(fmt::format("note: {} {}: {} console line(s) longer than {} bytes; {} "
                                 "bytes past that were not searched for metrics",
                                 cell.cell_key, repeat_label(sample.second), extracted.lines_cut,
                                 k_max_extracted_line_bytes, extracted.bytes_cut));
    }
}

// A sample another process stored already (see SampleAlreadyStored) is not a failure of this
// run: it is reported and not stored twice.
long long SampleRecorder::store(const BootRecord& boot) {
    try {
        return m_store.insert_boot(boot);
    } catch (const SampleAlreadyStored& e) {
        m_sinks.note(fmt::format("warning: {}; this boot is not stored twice", e.what()));
        return 0;
    }
}

std::string SampleRecorder::describe(const BootRecord& boot,
                                     const std::optional<QuietVerdict>& verdict) const {
    const std::string result =
        boot.outcome != BootOutcome::Ok
            ? fmt::format("{} ({})", to_string(boot.outcome), boot.outcome_reason)
        : boot.params_not_applied ? "param-not-applied"
                                  : format_seconds(boot.boot_seconds.value_or(0));
    if (!boot.loaded.value_or(false)) {
        return result;
    }
    const double load = std::max(boot.foreign_load.value_or(0), verdict ? verdict->load_before : 0);
    return fmt::format("{} [loaded: foreign load {:.0f}%]", result, load * 100);
}

} // namespace bb
