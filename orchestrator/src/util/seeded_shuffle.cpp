#include "util/seeded_shuffle.h"

namespace bb {

std::uint64_t bounded_draw(std::mt19937_64& engine, std::uint64_t bound) {
    const std::uint64_t threshold = (0 - bound) % bound; // 2^64 mod bound
    for (;;) {
        const std::uint64_t draw = engine();
        if (draw >= threshold) {
            return draw % bound;
        }
    }
}

} // namespace bb
