#pragma once
// The decision rule of one `bootbench bisect` step (docs/bisect.md), pure. A step boots two
// prefixes of a patch series interleaved, one round (one boot of each) at a time, and looks at
// the data after every round from `first_look` to `max_boots` rounds. Each look compares the
// newer prefix with the older one by the Hodges–Lehmann shift and its exact Mann–Whitney
// interval (stats/two_sample.h), each of its tails at α/looks (Bonferroni over the looks), so
// stopping at the first decisive look keeps a step's chance of a wrong decision at most α.
// The first step's decision ("changed", either way) is two-sided: its interval is at
// 1 − α/looks. A middle step's two decisions are one-sided claims about the side of delta/2
// the shift lies on, each wrong only through one tail: its interval is at 1 − 2α/looks.
#include "stats/result.h"

#include <span>
#include <string>

namespace bb {

struct BisectLimits {
    int max_boots = 10; // rounds per step: boots of each of its two kernels
    double alpha = 0.05;
};

struct LookSchedule {
    int first_look = 0;         // the first round at which a decision is possible at `level`
    int looks = 0;              // first_look … max_boots, one look per round
    double level = 0;           // of each look's two-sided interval: 1 − α / looks
    double one_sided_level = 0; // of a middle step's look: 1 − 2α / looks, α/looks per tail
};

// The earliest look is the fewest rounds whose exact test can reach the per-look level at all
// (two groups of n that do not overlap: p = 2 / C(2n, n)); looks before it would spend α for
// nothing. Throws Error when even max_boots rounds cannot reach it.
LookSchedule look_schedule(const BisectLimits& limits);

struct StepVerdict {
    enum class Kind {
        Continue,  // boot another round
        Changed,   // the end of the series differs from its base (the first step)
        LikeOld,   // the middle prefix behaves like the older end: the change is after it
        LikeNew,   // the middle prefix behaves like the newer end: the change is in it or before
        Undecided, // max_boots rounds and still no decision
    };
    Kind kind = Kind::Continue;
    int rounds = 0;       // booted rounds (failed boots count: they were booted)
    stats::Result shift;  // newer − older at the look's level (nothing before first_look)
    double threshold = 0; // the middle steps' boundary: half the series' shift
};

bool decided(const StepVerdict& verdict); // Changed, LikeOld or LikeNew

// The first step: the series' end against its base. Changed when the interval of end − base
// excludes 0.
StepVerdict judge_endpoints(std::span<const double> base, std::span<const double> end, int rounds,
                            const BisectLimits& limits);

// A middle step: prefix `mid` against the older end `old`, knowing the series' shift `delta`
// (the first step's estimate). Its interval of mid − old lying wholly on old's side of delta/2
// means "like old"; wholly beyond delta/2, "like new". A change spread over several patches
// leaves the interval across delta/2: undecided at max_boots, never a guess.
StepVerdict judge_midpoint(std::span<const double> old_values, std::span<const double> mid,
                           double delta, int rounds, const BisectLimits& limits);

} // namespace bb
