// The experiment a bisect step runs (bisect/bisect_step_experiment.h): two prefixes of the
// series variant, everything else the file's, the same text every time.
#include "bisect/bisect_step_experiment.h"
#include "experiment/experiment_parser.h"
#include "experiment/matrix.h"
#include "test_support.h"
#include "util/error.h"

#include <catch2/catch.hpp>

namespace {

constexpr const char* k_series = R"(name: delay
kernel:
  arch: arm64
  fragments: [arm64-virt-minimal]
  variants:
    - name: stock
    - name: series
      set: [CONFIG_PRINTK_TIME=y]
      cmdline: quiet
      patches: [p/0001-a.patch, p/0002-b.patch, p/0003-c.patch, p/0004-d.patch]
axes:
  hz: [250]
  machine: ["virt,acpi=off"]
repeats: {min: 6, max: 20, until: {ci_halfwidth: 2%}}
)";

bb::StepDesign design(const bb::Experiment& experiment) {
    return {&bb::series_variant(experiment, ""), {}, 7};
}

} // namespace

TEST_CASE("bisect step: the step's prefixes of the series, named by the step", "[bisect]") {
    const bb::Experiment experiment = bb::parse_experiment(k_series, "/srv/exp/delay.yaml");
    const bb::Experiment step = bb::step_experiment(experiment, design(experiment), {2, 3, 4});
    CHECK(step.name == "delay-bisect-2v3v4");
    REQUIRE(step.kernel.variants.size() == 3);
    CHECK(step.kernel.variants[2].name == "prefix-4");
    CHECK(step.kernel.variants[2].patches.size() == 4);
    const bb::Variant& older = step.kernel.variants[0];
    const bb::Variant& newer = step.kernel.variants[1];
    CHECK(older.name == "prefix-2");
    CHECK(newer.name == "prefix-3");
    CHECK(older.patches ==
          std::vector<std::filesystem::path>{"/srv/exp/p/0001-a.patch", "/srv/exp/p/0002-b.patch"});
    CHECK(newer.patches.size() == 3);
    CHECK(newer.patches.back() == "/srv/exp/p/0003-c.patch");
    // The variant's own settings stay with every prefix.
    CHECK(newer.set == std::vector<std::string>{"CONFIG_PRINTK_TIME=y"});
    CHECK(older.cmdline == "quiet");
    // One round up front, no precision rule: the step's own planner books the rest.
    CHECK(step.repeats == 1);
    CHECK_FALSE(step.until);
    CHECK(step.seed == 7u);
    REQUIRE(step.analysis);
    CHECK(step.analysis->pairs ==
          std::vector<bb::ComparedPair>{{"prefix-2", "prefix-3"}, {"prefix-3", "prefix-4"}});
    CHECK_FALSE(step.analysis->ratio);
    const auto cells = bb::expand_matrix(step);
    REQUIRE(cells.size() == 3);
    CHECK(cells[0].variant == "prefix-2");
}

TEST_CASE("bisect step: prefix 0 is the base kernel, and the text is stable", "[bisect]") {
    const bb::Experiment experiment = bb::parse_experiment(k_series, "/srv/exp/delay.yaml");
    const bb::Experiment step = bb::step_experiment(experiment, design(experiment), {0, 4});
    CHECK(step.name == "delay-bisect-0v4");
    REQUIRE(step.kernel.variants.size() == 2);
    CHECK(step.kernel.variants[0].patches.empty());
    CHECK(step.kernel.variants[1].patches.size() == 4);
    // Re-running the bisect must find the step's run by its content.
    CHECK(bb::step_experiment(experiment, design(experiment), {0, 4}).text == step.text);
    CHECK(bb::step_experiment(experiment, design(experiment), {0, 2, 4}).text != step.text);
}

TEST_CASE("bisect step: which variant is the series", "[bisect]") {
    const bb::Experiment experiment = bb::parse_experiment(k_series, "/srv/exp/delay.yaml");
    CHECK(bb::series_variant(experiment, "series").name == "series");
    CHECK(bb::test::thrown_message<bb::Error>([&] { bb::series_variant(experiment, "stock"); }) ==
          "/srv/exp/delay.yaml: --variant stock: it has no patches; the variants are: stock (0 "
          "patches), series (4 patches)");
    CHECK(bb::test::thrown_message<bb::Error>([&] {
              bb::series_variant(experiment, "nope");
          }).find("no such variant") != std::string::npos);
    const bb::Experiment none = bb::parse_experiment(
        "name: n\nkernel: {arch: arm64, variants: [{name: a}]}\n", "/srv/exp/n.yaml");
    CHECK(bb::test::thrown_message<bb::Error>([&] { bb::series_variant(none, ""); }) ==
          "/srv/exp/n.yaml: no variant has patches: bisect needs a variant whose patches: list "
          "is the series");
}
