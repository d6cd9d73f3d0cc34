#include "pipeline/sample_plan.h"

#include "store/sample_rule.h"
#include "util/error.h"

#include <algorithm>
#include <fmt/format.h>
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

void require_warmup_in_range(int warmup) {
    if (warmup < 0 || warmup > k_max_warmup) {
        throw Error(fmt::format("--warmup must be 0 to {}, got {}", k_max_warmup, warmup));
    }
}

std::vector<SampleRef> warmup_samples(const std::vector<Cell>& cells, int warmup,
                                      const std::vector<SampleRef>& measured,
                                      const std::set<std::pair<std::string, int>>& stored) {
    std::vector<size_t> cell_order;
    for (const auto& sample : measured) {
        if (std::find(cell_order.begin(), cell_order.end(), sample.first) == cell_order.end()) {
            cell_order.push_back(sample.first);
        }
    }
    std::vector<int> next(cells.size(), -1);
    std::vector<SampleRef> out;
    for (int round = 0; round < warmup; ++round) {
        for (const size_t cell : cell_order) {
            while (stored.count({cells[cell].cell_key, next[cell]}) != 0) {
                --next[cell];
            }
            out.emplace_back(cell, next[cell]--);
        }
    }
    return out;
}

size_t measured_count(const std::set<std::pair<std::string, int>>& stored) {
    return static_cast<size_t>(std::count_if(stored.begin(), stored.end(), [](const auto& sample) {
        return !is_warmup_repeat(sample.second);
    }));
}

int next_free_repeat(const std::set<std::pair<std::string, int>>& stored, const std::string& key) {
    int repeat = 0;
    while (stored.count({key, repeat}) != 0) {
        ++repeat;
    }
    return repeat;
}

} // namespace bb
