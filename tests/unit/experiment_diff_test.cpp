// Where two experiment files differ (experiment/experiment_diff.h): what compare and plan name
// when they refuse to put two experiments' runs side by side.
#include "experiment/experiment_diff.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

using Paths = std::vector<std::string>;

TEST_CASE("experiment differences: dotted paths of changed values, layout and names aside",
          "[experiment]") {
    const std::string a = "name: a\ndescription: x\naxes:\n  hz: [250]\n"
                          "nested:\n  l2_cmdline: quiet efivar_storm.writes=2\n  l2_smp: 1\n";
    const std::string b = "# a comment\nname: b\naxes: {hz: [250]}\n"
                          "nested:\n  l2_cmdline: 'quiet efivar_storm.writes=12'\n  l2_smp: 1\n"
                          "seed: 3\n";
    CHECK(bb::experiment_differences(a, b) == Paths{"nested.l2_cmdline", "seed"});
    CHECK(bb::experiment_differences(a, a).empty());
    CHECK(bb::experiment_differences(a, "axes: [unclosed").size() == 1);
    CHECK(bb::experiment_differences("", "") == Paths{});
}

TEST_CASE("experiment differences of stored texts that contain themselves", "[experiment]") {
    // A database is input: such a text must not overflow the stack (issue 48 item 3).
    const std::string cyclic = "name: a\nx: &x [*x]\n";
    CHECK(bb::experiment_differences(cyclic, cyclic).empty());
    CHECK(bb::experiment_differences(cyclic, "name: a\n") == Paths{"(the file)"});
}
