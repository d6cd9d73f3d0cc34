#include "console/console_monitor.h"
#include "console/kernel_cmdline.h"
#include "console/param_check.h"
#include "guest/init_script.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

using bb::check_params;
using bb::describe_param_problems;
using bb::ParamReadback;
using bb::parse_kernel_cmdline;
using bb::parse_param_readback;
using bb::same_param_value;
using State = ParamReadback::State;

namespace {
const bb::EarlyParamTest k_no_early_params = [](std::string_view) { return false; };

ParamReadback applied(std::string name, std::string value) {
    return {std::move(name), State::Applied, std::move(value)};
}
} // namespace

TEST_CASE("kernel command lines split like Linux splits them", "[param-check]") {
    const auto params =
        parse_kernel_cmdline("  console=ttyAMA0 quiet rcutree.x=1  a=\"b c\" \"d=e f\" -- g.h=1");
    REQUIRE(params.size() == 5);
    CHECK(params[0].name == "console");
    CHECK(params[0].value == "ttyAMA0");
    CHECK(params[1].name == "quiet");
    CHECK_FALSE(params[1].value.has_value());
    CHECK(params[2].name == "rcutree.x");
    CHECK(params[3].value == "b c");
    CHECK(params[4].name == "d");
    CHECK(params[4].value == "e f");
    CHECK(parse_kernel_cmdline("").empty());
    CHECK(parse_kernel_cmdline("a=").at(0).value == "");
    CHECK(bb::canonical_param_name("rcu-tree.no-such") == "rcu_tree.no_such");
}

TEST_CASE("readback lines parse, malformed ones are ignored", "[param-check]") {
    const auto value = parse_param_readback("srcutree.srcu_max_nodelay_phase applied 1000");
    REQUIRE(value);
    CHECK(value->state == State::Applied);
    CHECK(value->value == "1000");
    const auto spaced = parse_param_readback("m.s applied two words");
    REQUIRE(spaced);
    CHECK(spaced->value == "two words");
    CHECK(parse_param_readback("rcutree.no_such no-parameter")->state == State::NoParameter);
    CHECK(parse_param_readback("nosuch.p no-module")->state == State::NoModule);
    CHECK(parse_param_readback("rcuscale.nreaders module-file")->state == State::ModuleFile);
    CHECK(parse_param_readback("m.p unreadable")->state == State::Unreadable);
    CHECK_FALSE(parse_param_readback(""));
    CHECK_FALSE(parse_param_readback("nodot applied 1"));
    CHECK_FALSE(parse_param_readback("m.p took-it 1"));
}

TEST_CASE("values compare as the kernel shows them", "[param-check]") {
    CHECK(same_param_value(std::string("1000"), "1000"));
    CHECK(same_param_value(std::string("1"), "Y"));
    CHECK(same_param_value(std::string("y"), "Y"));
    CHECK(same_param_value(std::string("on"), "Y"));
    CHECK(same_param_value(std::string("0"), "N"));
    CHECK(same_param_value(std::string("off"), "N"));
    CHECK(same_param_value(std::nullopt, "Y")); // a bare bool parameter means true
    CHECK(same_param_value(std::string("0x10"), "16"));
    CHECK(same_param_value(std::string("007"), "7")); // base 0: octal, as kstrtoint reads it
    CHECK(same_param_value(std::string("-5"), "-5"));
    CHECK_FALSE(same_param_value(std::string("1"), "N"));
    CHECK_FALSE(same_param_value(std::string("abc"), "0"));
    CHECK_FALSE(same_param_value(std::string("100"), "1000"));
    CHECK_FALSE(same_param_value(std::nullopt, "0"));
    CHECK_FALSE(same_param_value(std::string("maybe"), "Y"));
}

TEST_CASE("parameters that did not take are named with the reason", "[param-check]") {
    const std::string cmdline = "console=ttyS0 rcutree.no_such_param=1 "
                                "rcutree.rcu_normal_wake_from_gp=1 srcutree.big=5 "
                                "nosuchmod.x=1 rcuscale.nreaders=2 rwsem.opt_rspin";
    const std::vector<ParamReadback> readbacks{
        {"rcutree.no_such_param", State::NoParameter, ""},
        applied("rcutree.rcu_normal_wake_from_gp", "1"),
        applied("srcutree.big", "3"),
        {"nosuchmod.x", State::NoModule, ""},
        {"rcuscale.nreaders", State::ModuleFile, ""},
        {"rwsem.opt_rspin", State::NoModule, ""},
    };
    const auto is_early = [](std::string_view name) { return name == "rwsem.opt_rspin"; };
    const auto problems = check_params(cmdline, readbacks, {}, is_early);
    REQUIRE(problems.size() == 3);
    CHECK(problems[0].param == "rcutree.no_such_param=1");
    CHECK(problems[0].why == "module rcutree has no parameter no_such_param");
    CHECK(problems[1].param == "srcutree.big=5");
    CHECK(problems[1].why == "/sys/module/srcutree/parameters/big reads \"3\"");
    CHECK(problems[2].param == "nosuchmod.x=1");
    CHECK(describe_param_problems(problems).rfind(
              "param-not-applied: rcutree.no_such_param=1 (module rcutree has no parameter "
              "no_such_param); srcutree.big=5",
              0) == 0);
}

TEST_CASE("the last of repeated parameters is the one that must take", "[param-check]") {
    const std::vector<ParamReadback> readbacks{applied("srcutree.p", "7")};
    CHECK(check_params("srcutree.p=1 srcutree.p=7", readbacks, {}, k_no_early_params).empty());
    CHECK(check_params("srcutree.p=7 srcutree.p=1", readbacks, {}, k_no_early_params).size() == 1);
    CHECK(check_params("srcu-tree.p=7", readbacks, {}, k_no_early_params).empty());
}

TEST_CASE("dotted parameters without a readback are not judged", "[param-check]") {
    CHECK(check_params("rcutree.x=1", {}, {}, k_no_early_params).empty());
}

TEST_CASE("plain parameters the kernel called unknown are flagged", "[param-check]") {
    const std::vector<std::string> lines{
        "[    0.012345] Unknown kernel command line parameters \"nosuchflag foo=1\", will be "
        "passed to user space."};
    const auto problems =
        check_params("console=ttyS0 nosuchflag foo=1 quiet", {}, lines, k_no_early_params);
    REQUIRE(problems.size() == 2);
    CHECK(problems[0].param == "nosuchflag");
    CHECK(problems[0].why == "the kernel reported it as unknown");
    CHECK(problems[1].param == "foo=1");
    CHECK(check_params("console=ttyS0 quiet", {}, lines, k_no_early_params).empty());
}

TEST_CASE("the monitor collects readbacks from the console", "[param-check]") {
    bb::ConsoleMonitor monitor;
    monitor.feed("BOOTBENCH-MARKER boot-done 0.3\r\nBOOTBENCH-PARAM rcutree.x no-param", 1.0);
    monitor.feed("eter\nBOOTBENCH-PARAM bad\nBOOTBENCH-PARAM srcutree.p applied 100\n", 1.1);
    REQUIRE(monitor.param_readbacks().size() == 2);
    CHECK(monitor.param_readbacks()[0].name == "rcutree.x");
    CHECK(monitor.param_readbacks()[0].state == State::NoParameter);
    CHECK(monitor.param_readbacks()[1].value == "100");
}

TEST_CASE("/init reads the parameters back after the boot marker, globbing off", "[param-check]") {
    for (const std::string& script :
         {bb::default_init_script(), bb::init_script_running("/workload.sh")}) {
        const size_t marker = script.find("BOOTBENCH-MARKER boot-done");
        const size_t readback = script.find("BOOTBENCH-PARAM $name applied");
        const size_t end = script.find("BOOTBENCH-MARKER end");
        REQUIRE(marker != std::string::npos);
        REQUIRE(readback != std::string::npos);
        CHECK(marker < readback); // costs the boot time nothing
        CHECK(readback < end);
        CHECK(script.find("set -f") < readback); // a value such as x.y=* is no file pattern
    }
}

TEST_CASE("a workload's own dotted settings are left to it", "[param-check]") {
    // sync-rcu-latency.sh reads sync_rcu.threads=64 from /proc/cmdline itself: /init reports
    // such a word as "workload" and the host does not flag it, while a kernel module's
    // parameter on the same line still counts.
    const auto readback = parse_param_readback("sync_rcu.threads workload");
    REQUIRE(readback.has_value());
    CHECK(readback->state == State::Workload);
    const std::vector<ParamReadback> readbacks{*readback, {"nosuchmod.x", State::NoModule, ""}};
    const auto problems =
        check_params("sync_rcu.threads=64 nosuchmod.x=1", readbacks, {}, k_no_early_params);
    REQUIRE(problems.size() == 1);
    CHECK(problems[0].param == "nosuchmod.x=1");

    const std::string script = bb::init_script_running("/workload.sh");
    CHECK(script.rfind("#!/bin/busybox sh\nworkload=/workload.sh\n", 0) == 0); // after #!
    CHECK(script.find("grep -qF \"$name=\" \"$workload\"") != std::string::npos);
    CHECK(bb::default_init_script().find("\nworkload=/workload\n") != std::string::npos);
}
