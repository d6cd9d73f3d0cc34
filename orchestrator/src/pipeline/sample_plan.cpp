#include "pipeline/sample_plan.h"

#include <algorithm>
#include <iterator>

namespace bb {

std::vector<SampleRef> samples_to_boot(const std::vector<Cell>& cells, int repeats,
                                       std::uint64_t seed, bool shuffled,
                                       const std::set<std::pair<std::string, int>>& stored) {
    const auto order = schedule_order(cells, repeats, seed, shuffled);
    std::vector<SampleRef> todo;
    std::copy_if(order.begin(), order.end(), std::back_inserter(todo),
                 [&](const SampleRef& sample) {
                     return stored.count({cells[sample.first].cell_key, sample.second}) == 0;
                 });
    return todo;
}

int next_free_repeat(const std::set<std::pair<std::string, int>>& stored, const std::string& key) {
    int repeat = 0;
    while (stored.count({key, repeat}) != 0) {
        ++repeat;
    }
    return repeat;
}

} // namespace bb
