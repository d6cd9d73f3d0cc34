#include "stats/permutation_p.h"

#include "util/error.h"
#include "util/interrupt.h"
#include "util/seeded_shuffle.h"

#include <random>

namespace bb::stats {

double permutation_p(std::vector<double> values,
                     const std::function<double(std::span<const double>)>& statistic,
                     const PermutationOptions& options, double stop_above) {
    const double observed = statistic(values);
    const double denominator = 1.0 + options.draws;
    std::mt19937_64 engine(options.seed);
    long exceedances = 0;
    for (int draw = 0; draw < options.draws; ++draw) {
        // A long history (10k nights) spends minutes here: Ctrl-C stops it (exit 130), not
        // after the whole scan.
        if (interrupted()) {
            throw Interrupted("stopped during a permutation test");
        }
        seeded_shuffle(std::span<double>(values), engine);
        if (statistic(values) >= observed) {
            ++exceedances;
            if ((1.0 + static_cast<double>(exceedances)) / denominator > stop_above) {
                break; // p only grows from here: the decision at stop_above is made
            }
        }
    }
    return (1.0 + static_cast<double>(exceedances)) / denominator;
}

} // namespace bb::stats
