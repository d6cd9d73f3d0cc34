// The quiet: key of an experiment file, the durations it takes and the flags that override it.
#include "experiment/experiment_parser.h"
#include "schedule/quiet_settings.h"
#include "test_support.h"
#include "util/duration.h"
#include "util/error.h"

#include <catch2/catch.hpp>
#include <string>

namespace {

const std::string k_head = "name: t\nkernel:\n  arch: arm64\n";

std::string error_of(const std::string& yaml) {
    return bb::test::thrown_message<bb::Error>([&yaml] { bb::parse_experiment(yaml, "exp.yaml"); });
}

} // namespace

TEST_CASE("durations take seconds, minutes and hours", "[quiet]") {
    CHECK(bb::parse_duration("90") == 90);
    CHECK(bb::parse_duration("90s") == 90);
    CHECK(bb::parse_duration("1.5m") == 90);
    CHECK(bb::parse_duration("10m") == 600);
    CHECK(bb::parse_duration("1h") == 3600);
    CHECK(bb::parse_duration("0") == 0);
    CHECK_FALSE(bb::parse_duration("").has_value());
    CHECK_FALSE(bb::parse_duration("m").has_value());
    CHECK_FALSE(bb::parse_duration("-5s").has_value());
    CHECK_FALSE(bb::parse_duration("10 m").has_value());
    CHECK_FALSE(bb::parse_duration("10d").has_value());
    CHECK_FALSE(bb::parse_duration("inf").has_value());
    CHECK(bb::format_duration(37.4) == "37 s");
    CHECK(bb::format_duration(754) == "12m34s");
    CHECK(bb::format_duration(4020) == "1h07m");
}

TEST_CASE("quiet: defaults without the key, values with it", "[quiet][experiment]") {
    const bb::Experiment plain = bb::parse_experiment(k_head, "exp.yaml");
    CHECK(plain.quiet.max_load == Approx(0.10));
    CHECK(plain.quiet.max_wait_s == 600);
    CHECK(plain.quiet.on_timeout == bb::QuietTimeout::RunLoaded);
    CHECK(plain.quiet.wait);

    const bb::Experiment set = bb::parse_experiment(
        k_head + "quiet: {max_load: 0.2, max_wait: 90s, on_timeout: stop}\n", "exp.yaml");
    CHECK(set.quiet.max_load == Approx(0.2));
    CHECK(set.quiet.max_wait_s == 90);
    CHECK(set.quiet.on_timeout == bb::QuietTimeout::Stop);

    const bb::Experiment minutes =
        bb::parse_experiment(k_head + "quiet:\n  max_wait: 10m\n", "exp.yaml");
    CHECK(minutes.quiet.max_wait_s == 600);
    CHECK(minutes.quiet.max_load == Approx(0.10));
}

TEST_CASE("quiet: errors name the file, line and column", "[quiet][experiment]") {
    CHECK(error_of(k_head + "quiet:\n  max_lod: 0.1\n") ==
          "exp.yaml:5:3: unknown key \"max_lod\" (did you mean \"max_load\"?)");
    CHECK(error_of(k_head + "quiet:\n  max_load: 1.5\n") ==
          "exp.yaml:5:13: max_load: expected a fraction of the host's CPUs from 0 to 1 (e.g. "
          "0.10), got 1.5");
    CHECK(error_of(k_head + "quiet:\n  max_load: busy\n") ==
          "exp.yaml:5:13: max_load: expected a fraction of the host's CPUs from 0 to 1 (e.g. "
          "0.10), got \"busy\"");
    CHECK(error_of(k_head + "quiet:\n  max_wait: 10 minutes\n") ==
          "exp.yaml:5:13: max_wait: expected a duration such as 90, 90s, 10m or 1h (0: do not "
          "wait), got \"10 minutes\"");
    CHECK(error_of(k_head + "quiet:\n  on_timeout: stpo\n") ==
          "exp.yaml:5:15: on_timeout: \"stpo\" is not an action (did you mean \"stop\"?)");
    CHECK(error_of(k_head + "quiet:\n  on_timeout: wait\n") ==
          "exp.yaml:5:15: on_timeout: \"wait\" is not an action (expected run-loaded or stop)");
    CHECK(error_of(k_head + "quiet: 0.1\n") ==
          "exp.yaml:4:8: quiet: expected a mapping with keys max_load, max_wait, on_timeout, got "
          "\"0.1\"");
    CHECK(error_of(k_head + "quite: {}\n") ==
          "exp.yaml:4:1: unknown key \"quite\" (did you mean \"quiet\"?)");
}

TEST_CASE("flags override the file's quiet settings one by one", "[quiet]") {
    bb::QuietSettings file;
    file.max_load = 0.3;
    file.max_wait_s = 60;
    file.on_timeout = bb::QuietTimeout::Stop;
    CHECK(bb::with_overrides(file, {}).max_load == Approx(0.3));
    bb::QuietOverrides flags;
    flags.max_wait_s = 5;
    const bb::QuietSettings mixed = bb::with_overrides(file, flags);
    CHECK(mixed.max_load == Approx(0.3));
    CHECK(mixed.max_wait_s == 5);
    CHECK(mixed.on_timeout == bb::QuietTimeout::Stop);
    CHECK(mixed.wait);
    flags.no_wait = true;
    flags.on_timeout = bb::QuietTimeout::RunLoaded;
    const bb::QuietSettings off = bb::with_overrides(file, flags);
    CHECK_FALSE(off.wait);
    CHECK(off.on_timeout == bb::QuietTimeout::RunLoaded);
    CHECK(bb::quiet_timeout_from_string("run-loaded") == bb::QuietTimeout::RunLoaded);
    CHECK_FALSE(bb::quiet_timeout_from_string("loaded").has_value());
}
