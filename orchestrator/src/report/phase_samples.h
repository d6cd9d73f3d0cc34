#pragma once
// The boots of a phase view (report --view phases, compare --phases, history --view phases),
// each divided into the phases of report/boot_phases.h and grouped like `bootbench report`'s
// groups. A boot enters when the one used-sample rule (store/sample_rule.h, through
// report/sample_query.h) uses one of its moments; it gives each phase whose two moments it has
// one value, so a boot without a marker adds nothing to "init" (and is counted there).
#include "report/boot_phases.h"
#include "store/axis_value.h"
#include "store/database.h"
#include "store/sample_selection.h"

#include <array>
#include <map>
#include <string>
#include <vector>

namespace bb {

// One boot as the phase views read it.
struct PhaseBoot {
    long long boot_id = 0;
    std::vector<AxisValue> key; // its group's
    BootMoments moments;        // the moments the used-sample rule lets in; QemuStart is 0
    bool entered = false;       // some moment of it is used
    bool failed = false;        // outcome other than ok (entered only with --include-failed)
    bool loaded = false;        // under foreign load (entered only with --include-loaded)
    std::string from_marker;    // non-empty: its endpoint starts at this marker, not at qemu's
};

struct PhaseGroup {
    std::vector<AxisValue> key;
    // Per phase (k_boot_phases' order), one value per entered boot that has both its moments.
    std::array<std::vector<double>, k_phase_count> phases;
    std::vector<double> endpoint; // qemu start → marker of the entered boots that have a marker
    std::array<int, k_phase_count> lacking{}; // entered boots without a moment of the phase
    int lacking_endpoint = 0;                 // entered boots without a marker
    int boots = 0;                            // selected boots of the group
    int entered = 0;
    int excluded = 0;    // not entered: failed, loaded or without any moment
    int from_marker = 0; // left out: endpoint timed from a start marker
    int used_failed = 0; // failed boots among the entered ones
    int used_loaded = 0; // loaded boots among the entered ones
};

struct PhaseSet {
    std::vector<std::string> axes;
    std::vector<PhaseGroup> groups; // sorted by key
    bool include_failed = false;
    bool include_loaded = false;
    int boots = 0;
    int entered = 0;
    std::map<std::string, int> from_marker; // start marker → boots left out for it
};

// Groups boots as `bootbench report` does (by key); pure, so tests give it boots directly.
PhaseSet group_phases(const std::vector<std::string>& axes, const std::vector<PhaseBoot>& boots);

// Reads the selection once per stored moment (its column as the metric) and joins the boots:
// the filters, axes and --include-* switches of `query` apply; its metric does not. Throws Error
// as query_samples does (unknown run, experiment or axis; an --only that matches nothing).
PhaseSet query_phases(Database& db, SampleQuery query);

// A phase group's value list by phase index; k_phase_count is the endpoint.
const std::vector<double>& phase_group_values(const PhaseGroup& group, size_t phase);
const BootPhaseInfo& phase_info(size_t phase); // likewise: k_phase_count is the endpoint

} // namespace bb
