#include "experiment/axis_table.h"
#include "experiment/experiment_parser.h"
#include "experiment/matrix.h"
#include "util/error.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>
#include <string>

namespace {

// A value the axis accepts: its vocabulary's last, else its minimum, else a plain word.
bb::AxisLiteral acceptable_value(const bb::BuiltinAxis& axis) {
    if (axis.vocabulary != nullptr) {
        return axis.vocabulary().back();
    }
    if (axis.kind == bb::AxisKind::Integer) {
        return axis.minimum;
    }
    return std::string("word");
}

std::string yaml_value(const bb::AxisLiteral& value) {
    return std::holds_alternative<long long>(value) ? bb::literal_text(value)
                                                    : "\"" + bb::literal_text(value) + "\"";
}

// l2_queues needs what it sets: a nested cell and an L2 device that takes queues.
std::string one_axis_experiment(const bb::BuiltinAxis& axis, const std::string& values) {
    const bool l2 = axis.name == "l2_queues";
    return "name: t\nkernel:\n  arch: arm64\naxes:\n  " + std::string(axis.name) + ": [" + values +
           "]\n" + (l2 ? "  topology: [nested]\nnested:\n  l2_devices: [virtio-blk-pci]\n" : "");
}

std::string file_text(const std::string& relative) {
    std::ifstream in(std::string(BOOTBENCH_SOURCE_DIR) + "/" + relative);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

} // namespace

TEST_CASE("the axis table is the canonical order of cell keys", "[axes]") {
    std::vector<std::string> names{"variant"};
    for (const auto& axis : bb::builtin_axis_table()) {
        names.emplace_back(axis.name);
        CHECK(bb::find_builtin_axis(axis.name) == &axis);
    }
    CHECK(names == bb::builtin_axes());
    CHECK(bb::find_builtin_axis("variant") == nullptr);
    CHECK(bb::find_builtin_axis("cmdline") == nullptr);
}

TEST_CASE("every table entry is complete", "[axes]") {
    for (const auto& axis : bb::builtin_axis_table()) {
        INFO(axis.name);
        CHECK(axis.place != nullptr);
        CHECK_FALSE(axis.reaches.empty());
        CHECK_FALSE(axis.when_absent.empty());
        // A vocabulary names its values itself; anything else must say what a value is.
        CHECK((axis.vocabulary != nullptr) == axis.values.empty());
        CHECK((axis.vocabulary != nullptr) == !axis.noun.empty());
    }
}

// Runs over the whole table, so a new entry is checked from YAML to the stored params without
// a test of its own: parsed, placed, keyed, and its type kept (integers stay JSON numbers).
TEST_CASE("every axis travels from the file to the cell's key and params with its type", "[axes]") {
    for (const auto& axis : bb::builtin_axis_table()) {
        INFO(axis.name);
        const bb::AxisLiteral value = acceptable_value(axis);
        const auto cells = bb::expand_matrix(
            bb::parse_experiment(one_axis_experiment(axis, yaml_value(value)), "/e/exp.yaml"));
        REQUIRE(cells.size() == 1);
        const std::string name(axis.name);
        const std::string entry = name + "=" + bb::literal_text(value);
        CHECK(cells[0].cell_key == (name == "l2_queues" ? "variant=stock;topology=nested;" + entry
                                                        : "variant=stock;" + entry));
        CHECK(cells[0].params.at(name) == bb::literal_json(value));
        CHECK(cells[0].params.at(name).is_number_integer() == (axis.kind == bb::AxisKind::Integer));
    }
}

TEST_CASE("an axis with a vocabulary refuses anything else, naming what it takes", "[axes]") {
    for (const auto& axis : bb::builtin_axis_table()) {
        if (axis.vocabulary == nullptr) {
            continue;
        }
        INFO(axis.name);
        const std::string outside = axis.kind == bb::AxisKind::Integer ? "7" : "\"elsewhere\"";
        try {
            bb::parse_experiment(one_axis_experiment(axis, outside), "/e/exp.yaml");
            FAIL("accepted " + outside);
        } catch (const bb::Error& error) {
            const std::string message = error.what();
            CHECK_THAT(message, Catch::Contains(std::string(axis.noun)));
            CHECK_THAT(message, Catch::Contains(bb::vocabulary_texts(axis).back()));
        }
    }
}

TEST_CASE("the axis placements set the cell and, for hz and nested, the kernel build", "[axes]") {
    const auto cells = bb::expand_matrix(bb::parse_experiment(
        "name: t\nkernel:\n  arch: arm64\naxes:\n  hz: [250]\n  smp: [3]\n  memory: [512]\n"
        "  firmware: [fw/custom.fd]\n  machine: [virt]\n  cpu: [cortex-a57]\n"
        "  topology: [nested]\n",
        "/e/exp.yaml"));
    REQUIRE(cells.size() == 1);
    const bb::Cell& cell = cells[0];
    CHECK(cell.build.hz == std::optional<int>(250));
    CHECK(cell.smp == std::optional<int>(3));
    CHECK(cell.memory_mb == std::optional<int>(512));
    CHECK(cell.firmware == std::optional<std::string>("/e/fw/custom.fd"));
    CHECK(cell.machine == "virt");
    CHECK(cell.cpu == "cortex-a57");
    CHECK(cell.topology == bb::Topology::Nested);
    CHECK(std::count(cell.build.fragments.begin(), cell.build.fragments.end(),
                     bb::k_nested_l1_fragment) == 1);
}

TEST_CASE("l2_queues reaches the cell, its key and its parameters, and not the build", "[axes]") {
    const auto cells = bb::expand_matrix(bb::parse_experiment(
        "name: t\nkernel:\n  arch: arm64\naxes:\n  topology: [nested]\n  l2_queues: [1, 4]\n"
        "nested:\n  l2_devices: [virtio-blk-pci]\n",
        "/e/exp.yaml"));
    REQUIRE(cells.size() == 2);
    CHECK(cells[0].l2_queues == std::optional<int>(1));
    CHECK(cells[1].l2_queues == std::optional<int>(4));
    CHECK(cells[1].cell_key == "variant=stock;topology=nested;l2_queues=4");
    CHECK(cells[1].params.at("l2_queues") == 4);
    // L2's queues are L1's /init, not L1's kernel: one build serves every value.
    CHECK(cells[0].build_id == cells[1].build_id);
}

TEST_CASE("docs/experiments.md's table of axes is the table's own", "[axes]") {
    const std::string docs = file_text("docs/experiments.md");
    REQUIRE_FALSE(docs.empty());
    CHECK_THAT(docs, Catch::Contains(bb::axes_markdown_table()));
}

TEST_CASE("run --help lists every axis", "[axes]") {
    const std::string help = bb::axes_help_text();
    for (const auto& key : bb::axes_keys()) {
        CHECK_THAT(help, Catch::Contains("  " + key + " "));
    }
}
