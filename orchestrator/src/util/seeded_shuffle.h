#pragma once
// A seeded shuffle that replays the same order on every standard library: std::shuffle and
// std::uniform_int_distribution are implementation-defined, so a recorded seed would permute
// differently under libc++ than under libstdc++. Fisher–Yates over std::mt19937_64 (whose
// output the standard fixes) with an unbiased bounded draw (rejection, no modulo bias).
#include <cstdint>
#include <random>
#include <span>
#include <utility>

namespace bb {

// Uniform in [0, bound), bound > 0: draws below 2^64 mod bound are rejected, so every residue
// is reached by the same number of the engine's outputs.
std::uint64_t bounded_draw(std::mt19937_64& engine, std::uint64_t bound);

// Fisher–Yates from the back: every order equally likely, a function of the engine's state only.
// experiment/matrix.cpp's schedule_order shuffles each round with it: a recorded seed replays
// the order it always did (the loop moved here unchanged).
template <class T> void seeded_shuffle(std::span<T> values, std::mt19937_64& engine) {
    for (size_t i = values.size(); i > 1; --i) {
        std::swap(values[i - 1], values[bounded_draw(engine, i)]);
    }
}

} // namespace bb
