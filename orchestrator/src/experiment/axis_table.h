#pragma once
// The built-in axes of an experiment, stated once (docs/experiments.md#axes): the parser reads
// an axis's values by its kind and vocabulary, the matrix places each value into a cell (and
// into the cell's kernel build when the axis changes it), cell keys, include/exclude rules,
// compare/trend and `run --only` know it by its name, and `run --help` and the docs' table are
// written from it. Adding an axis is one entry in axis_table.cpp (and the Cell field it sets).
// `variant` (the kernel's variants) and `cmdline` (a mapping of kernel parameters) have shapes
// of their own and are not in the table.
#include "experiment/axis_literal.h"

#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace bb {

struct Experiment;
struct Cell;

enum class AxisKind { Integer, Text };

// The vCPUs a guest may have: qemu's arm64 virt machine takes 512 (GICv3).
inline constexpr long long k_max_vcpus = 512;

// Every member has a default, so that an entry names only what it sets (GCC warns about a
// designated initializer that leaves out a member without one).
struct BuiltinAxis {
    std::string_view name; // key under axes:, and the axis's name everywhere after
    AxisKind kind = AxisKind::Text;
    long long minimum = 1; // Integer: the smallest value a file may give
    // Integer: the largest, what qemu and the kernel can take (a file is input: smp
    // 1000000000 passed validation and failed at launch).
    long long maximum = std::numeric_limits<int>::max();
    // The values allowed, in documentation order; nullptr: any value of the kind.
    std::vector<AxisLiteral> (*vocabulary)() = nullptr;
    std::string_view noun{};        // with a vocabulary: "X is not <noun>"
    std::string_view values{};      // without one: what a value is, for help and docs
    std::string_view when_absent{}; // what a cell gets when the axis is not declared
    std::string_view build{};       // how a value changes the kernel build; empty: it does not
    std::string_view reaches{};     // how a value reaches the boot
    void (*place)(const Experiment&, const AxisLiteral&, Cell&) = nullptr;
};

// In canonical order: the order of the matrix's product and of every cell key.
const std::vector<BuiltinAxis>& builtin_axis_table();
const BuiltinAxis* find_builtin_axis(std::string_view name);

// The keys `axes:` accepts, in documentation order (did-you-mean prefers earlier ones).
const std::vector<std::string>& axes_keys();

// The allowed values of a vocabulary axis as text; empty when any value of its kind goes.
std::vector<std::string> vocabulary_texts(const BuiltinAxis& axis);

// `run --help`'s list of axes, and docs/experiments.md's table (a unit test keeps them equal).
std::string axes_help_text();
std::string axes_markdown_table();

} // namespace bb
