#pragma once
// The decision rule of one `bootbench bisect` step (docs/bisect.md), pure. A step boots its
// prefixes of a patch series interleaved, one round (one boot of each) at a time, and looks at
// the data after every round from `first_look` to `max_boots` rounds. Each look compares two
// prefixes by the Hodges–Lehmann shift and its exact Mann–Whitney interval
// (stats/two_sample.h) at level 1 − α/looks (Bonferroni over the looks), so stopping at the
// first decisive look keeps a step's chance of a wrong decision at most α.
#include "stats/result.h"

#include <span>
#include <string>

namespace bb {

struct BisectLimits {
    int max_boots = 20; // rounds per step: boots of each of its kernels
    double alpha = 0.05;
    // `--min-effect`: the smallest move that counts, as a fraction of the older kernel's median
    // (0: any shift whose interval excludes 0). A move is an interval wholly beyond ±that
    // margin, so a zero shift errs less often than with 0, never more; a boot-to-boot wobble of
    // a few percent between two builds of the same code no longer sends a bisect astray.
    double min_effect = 0;
};

struct LookSchedule {
    int first_look = 0; // the first round at which a decision is possible at `level`
    int looks = 0;      // first_look … max_boots, one look per round
    double level = 0;   // of each look's interval: 1 − α / looks
};

// The earliest look is the fewest rounds whose exact test can reach the per-look level at all
// (two groups of n that do not overlap: p = 2 / C(2n, n)); looks before it would spend α for
// nothing. Throws Error when even max_boots rounds cannot reach it.
LookSchedule look_schedule(const BisectLimits& limits);

struct StepVerdict {
    enum class Kind {
        Continue,  // boot another round
        Changed,   // the end of the series differs from its base (the first step)
        LikeOld,   // the middle prefix differs from the newer end: the change is after it
        LikeNew,   // the middle prefix differs from the older end: a change is in it or before
        Undecided, // max_boots rounds and still no decision
    };
    Kind kind = Kind::Continue;
    int rounds = 0;            // booted rounds (failed boots count: they were booted)
    stats::Result shift;       // newer − older (the middle prefix − the older end)
    stats::Result upper_shift; // middle steps: the newer end − the middle prefix
};

bool decided(const StepVerdict& verdict); // Changed, LikeOld or LikeNew

// The first step: the series' end against its base. Changed when the interval of end − base
// excludes 0 (with min_effect: lies wholly beyond ± min_effect × the base's median).
StepVerdict judge_endpoints(std::span<const double> base, std::span<const double> end, int rounds,
                            const BisectLimits& limits);

// A middle step: prefix `mid` booted beside both ends of the range still holding the change.
// Like new when the interval of mid − old excludes 0 (or the min_effect margin, as above) (mid has
// moved: a change is in (old, mid]), else like old when the interval of new − mid excludes 0 (the
// move comes after mid). Each is a test against 0 at the full distance of the change, not against a
// boundary halfway, and needs no estimate of the series' shift. A wrong decision needs the interval
// of a zero shift to exclude 0, so one of the two tests errs at most α over the step's looks.
StepVerdict judge_midpoint(std::span<const double> old_values, std::span<const double> mid,
                           std::span<const double> new_values, int rounds,
                           const BisectLimits& limits);

} // namespace bb
