#pragma once
// The execute stage of a run (docs/architecture.md, "A sample's way"): the samples of a plan go
// to whichever lane is free, each behind the quiet-host gate; a sample whose host was lost goes
// back to the front of the queue for another host; Ctrl-C, a gate that gives up and a lane
// whose store failed wind every lane down. It knows nothing of qemu, kernels or SQL: what a
// sample is booted and stored with comes in as SampleWork, so unit tests drive it with fake
// launchers (tests/unit/fake_launcher.h) and a scratch database in milliseconds.
#include "schedule/quiet_gate.h"
#include "schedule/quiet_settings.h"
#include "store/boot_record.h"
#include "store/run_status.h"

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace bb {

using SampleRef = std::pair<size_t, int>; // (cell index, repeat index)

// What the scheduler asks of the rest of the run. `gate` and `boot` run outside the scheduler's
// lock, concurrently on different lanes; `record`, `record_lost`, `next_round` and the progress
// sinks run under it, one call at a time.
struct SampleWork {
    std::function<std::string(const SampleRef&)> label; // "variant=a;hz=250 r3"
    // The quiet-host gate before a sample on `lane`; nullopt: this lane is not gated.
    std::function<std::optional<QuietVerdict>(size_t lane, const std::string& label)> gate;
    // Boots the sample on `lane`; `concurrency` counts the guests on the lane's host with it.
    std::function<BootRecord(size_t lane, const SampleRef&, int concurrency)> boot;
    // Why the host of `lane` stopped answering, "" while it answers.
    std::function<std::string(size_t lane)> host_lost;
    // Stores a finished sample; returns whether progress counts it as failed.
    std::function<bool(BootRecord&, const SampleRef&, size_t lane,
                       const std::optional<QuietVerdict>&)>
        record;
    // Stores the failed boot a lost host left; the sample itself is booted again elsewhere.
    std::function<void(BootRecord&, const SampleRef&, size_t lane,
                       const std::optional<QuietVerdict>&, const std::string& why)>
        record_lost;
    // Once the queue is empty and every lane idle: another round (precision repeats) or none.
    std::function<std::vector<SampleRef>()> next_round;
    std::function<void(const std::string&)> status; // transient status line
    std::function<void(const std::string&)> note;   // permanent line
};

// One guest slot: the host it boots on (several lanes share a host).
struct ScheduleLane {
    size_t host = 0;
    std::string host_label; // "local" or a libvirt URI, for notes
};

struct ScheduleResult {
    int finished = 0; // samples booted and stored (a lost host's attempts not counted)
    int planned = 0;  // samples given to the scheduler, next rounds included
    int requeued = 0; // samples of lost hosts, booted again elsewhere
    int hosts_lost = 0;
    int waited = 0; // samples that waited for a quiet host first
    double quiet_wait_seconds = 0;
    size_t stranded = 0;    // left in the queue because every host was lost
    std::string quiet_stop; // why the gate ended the run (on_timeout: stop); "" otherwise
    std::string failure;    // what a lane threw (a store that failed); "" otherwise
};

// Runs `todo`, then whatever `next_round` adds, over `lanes` (one worker thread each) until
// the queue is empty, the user interrupts (util/interrupt.h), the gate stops the run, every
// host is lost or a lane throws (which interrupts the others). A sample that was not booted
// stays unstored: a resume boots it. `already_stored` only feeds the progress line.
ScheduleResult execute_samples(const std::vector<ScheduleLane>& lanes, const QuietSettings& quiet,
                               const std::vector<SampleRef>& todo, const SampleWork& work,
                               int already_stored = 0);

// The status a run or boot series ends with once its samples were executed: interrupted by the
// user, failed when samples were left for want of a quiet or a live host, else done. (A lane
// whose store failed ends it failed too, before this is asked: pipeline/experiment_runner.cpp.)
RunStatus finished_status(const ScheduleResult& executed);

} // namespace bb
