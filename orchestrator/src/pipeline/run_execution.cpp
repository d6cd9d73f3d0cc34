#include "pipeline/run_execution.h"

#include "pipeline/nested_boot.h"
#include "pipeline/quiet_sample.h"
#include "pipeline/single_boot.h"
#include "store/sample_rule.h"

#include <fmt/format.h>
#include <memory>
#include <vector>

namespace bb {

SampleWork run_sample_work(const RunExecution& run) {
    const Experiment& experiment = run.experiment;
    const std::vector<Cell>& cells = run.cells;
    const RunArtifacts& artifacts = run.artifacts;
    const BootLanes& lanes = run.lanes;
    const QuietSettings& quiet = run.quiet;
    SampleRecorder& recorder = run.recorder;
    RoundPlanner& rounds = run.rounds;
    const long long run_id = run.run_id;
    const RunProgress& progress = run.progress;
    MonitorLimits limits;
    limits.timing_marker = experiment.guest.timing_marker;
    limits.end_marker = experiment.guest.end_marker;
    limits.total_timeout_s = experiment.timeout_s;
    limits.silence_timeout_s = experiment.silence_s;
    // A fleet's samples name their host; a fleet host has a libvirt connection.
    const bool by_host = lanes.hosts().size() > 1 || lanes.hosts().front().connection != nullptr;
    auto host_of = [&lanes](size_t lane) -> const LaneHost& {
        return lanes.hosts()[lanes.lanes()[lane].host];
    };
    SampleWork work;
    work.label = [&cells](const SampleRef& sample) {
        return fmt::format("{} {}", cells[sample.first].cell_key, repeat_label(sample.second));
    };
    // One load source per lane, each touched only by its lane's thread; made before any lane
    // runs, so the vector never moves under them.
    auto sources = run.load_sources != nullptr
                       ? run.load_sources
                       : std::make_shared<std::vector<HostLoadSource>>(lanes.lanes().size());
    work.gate = [&quiet, host_of, progress, sources](size_t lane, const std::string& label) {
        return gate_sample(quiet, host_of(lane).guests_local, sources->at(lane),
                           [&](const std::string& text) { progress.status(label + ": " + text); });
    };
    work.boot = [&cells, &artifacts, &lanes, host_of, limits](size_t lane, const SampleRef& sample,
                                                              int concurrency) {
        const Cell& cell = cells[sample.first];
        QemuSpec spec = artifacts.spec_for(cell);
        spec.accel = host_of(lane).accel.accel;
        const bool nested = cell.topology == Topology::Nested;
        BootRecord boot =
            boot_once(spec, nested ? nested_limits(limits) : limits, *lanes.lanes()[lane].launcher);
        boot.concurrency = concurrency;
        boot.host_id = host_of(lane).host_id;
        boot.accel_reason = host_of(lane).accel.reason;
        artifacts.stamp(boot, cell);
        return boot;
    };
    work.host_lost = [&lanes](size_t lane) { return lanes.lost(lanes.lanes()[lane].host); };
    work.record = [&recorder, host_of, by_host](BootRecord& boot, const SampleRef& sample,
                                                size_t lane,
                                                const std::optional<QuietVerdict>& verdict) {
        return recorder.record(boot, sample, by_host ? host_of(lane).label : "", verdict);
    };
    work.record_lost = [&recorder, host_of](BootRecord& boot, const SampleRef& sample, size_t lane,
                                            const std::optional<QuietVerdict>& verdict,
                                            const std::string& why) {
        recorder.record_lost(boot, sample, host_of(lane).label, verdict, why);
    };
    work.next_round = [&rounds, run_id, progress] {
        return rounds.next_round(run_id, progress.note);
    };
    work.status = progress.status;
    work.note = progress.note;
    return work;
}

std::vector<ScheduleLane> schedule_lanes(const BootLanes& lanes) {
    std::vector<ScheduleLane> out;
    for (const auto& lane : lanes.lanes()) {
        out.push_back({lane.host, lanes.hosts()[lane.host].label});
    }
    return out;
}

ScheduleResult execute_run(const RunExecution& run, const std::vector<SampleRef>& todo,
                           int already_stored) {
    return execute_samples(schedule_lanes(run.lanes), run.quiet, todo, run_sample_work(run),
                           already_stored);
}

} // namespace bb
