#include "experiment/experiment_parser.h"
#include "experiment/hosts_parser.h"
#include "test_support.h"
#include "util/error.h"

#include <catch2/catch.hpp>

using bb::test::thrown_message;

namespace {
std::string fleet_error(const std::string& yaml) {
    return thrown_message<bb::Error>([&] { bb::parse_fleet_file(yaml, "fleet.yaml"); });
}
} // namespace

TEST_CASE("an experiment's hosts become the fleet, slots defaulting to 1", "[fleet]") {
    const auto experiment = bb::parse_experiment(
        "name: t\nkernel:\n  arch: arm64\nhosts:\n  - {uri: 'qemu:///system', slots: 2}\n"
        "  - uri: qemu+ssh://root@lab1/system\n",
        "x.yaml");
    REQUIRE(experiment.hosts.size() == 2);
    CHECK(experiment.hosts[0].uri == "qemu:///system");
    CHECK(experiment.hosts[0].slots == 2);
    CHECK(experiment.hosts[1].uri == "qemu+ssh://root@lab1/system");
    CHECK(experiment.hosts[1].slots == 1);
    CHECK(bb::parse_experiment("name: t\nkernel:\n  arch: arm64\n", "x.yaml").hosts.empty());
}

TEST_CASE("a fleet file holds the same list under hosts", "[fleet]") {
    const auto hosts =
        bb::parse_fleet_file("hosts:\n  - uri: qemu+tcp://127.0.0.1/system\n    slots: 3\n", "f");
    REQUIRE(hosts.size() == 1);
    CHECK(hosts[0].uri == "qemu+tcp://127.0.0.1/system");
    CHECK(hosts[0].slots == 3);
}

TEST_CASE("fleet errors name file, line and column and say what was expected", "[fleet]") {
    CHECK(fleet_error("hosts:\n  - {uri: 'qemu:///system', slot: 2}\n") ==
          "fleet.yaml:2:29: unknown key \"slot\" (did you mean \"slots\"?)");
    CHECK(fleet_error("hosts:\n  - {uri: lab1}\n") ==
          "fleet.yaml:2:11: uri: \"lab1\" is not a libvirt URI (expected e.g. qemu:///system or "
          "qemu+ssh://root@HOST/system)");
    CHECK(fleet_error("hosts:\n  - {uri: 'qemu:///system', slots: 0}\n") ==
          "fleet.yaml:2:36: slots: expected an integer >= 1, got \"0\"");
    CHECK(fleet_error("hosts:\n  - {slots: 2}\n") ==
          "fleet.yaml:2:5: hosts: missing required key \"uri\" (expected a libvirt URI)");
    CHECK(fleet_error("hosts: []\n") ==
          "fleet.yaml:1:8: hosts: expected a non-empty list of {uri: ..., slots: N}, got an "
          "empty list");
    CHECK(fleet_error("hosts:\n  - uri: 'qemu:///system'\n  - uri: 'qemu:///system'\n") ==
          "fleet.yaml:3:5: hosts: \"qemu:///system\" is listed twice (give it more slots "
          "instead)");
    CHECK(fleet_error("host:\n  - uri: 'qemu:///system'\n") ==
          "fleet.yaml:1:1: unknown key \"host\" (did you mean \"hosts\"?)");
}

TEST_CASE("a fleet file that contains itself is refused, not walked forever", "[fleet]") {
    CHECK_THAT(fleet_error("hosts: &h [*h]\n"),
               Catch::StartsWith("fleet.yaml:1:") && Catch::Contains("nests more than 64 levels"));
}

TEST_CASE("an experiment's hosts key reports errors at their place", "[fleet]") {
    const std::string message = thrown_message<bb::Error>([] {
        bb::parse_experiment("name: t\nkernel:\n  arch: arm64\nhosts: qemu:///system\n", "x.yaml");
    });
    CHECK(message == "x.yaml:4:8: hosts: expected a non-empty list of {uri: ..., slots: N}, got "
                     "\"qemu:///system\"");
}

TEST_CASE("a host whose URI runs a program needs allow_uri_programs", "[fleet][uri]") {
    CHECK(fleet_error("hosts:\n  - {uri: 'qemu+ext:///system?command=/tmp/x'}\n") ==
          "fleet.yaml:2:11: uri: \"qemu+ext:///system?command=/tmp/x\" makes libvirt run a "
          "program (transport \"ext\" executes command=/tmp/x on this machine); refused unless "
          "this host has allow_uri_programs: true (see docs/fleet.md)");
    CHECK(fleet_error("hosts:\n  - {uri: 'qemu+ssh://lab1/system?netcat=/tmp/nc', "
                      "allow_uri_programs: no}\n") ==
          "fleet.yaml:2:72: allow_uri_programs: expected true or false, got \"no\"");
    const auto hosts = bb::parse_fleet_file(
        "hosts:\n  - {uri: 'qemu+ext:///system?command=/tmp/x', allow_uri_programs: true}\n", "f");
    REQUIRE(hosts.size() == 1);
    CHECK(hosts[0].allow_uri_programs);
    CHECK_FALSE(
        bb::parse_fleet_file("hosts:\n  - {uri: 'qemu:///system'}\n", "f")[0].allow_uri_programs);
}

TEST_CASE("a fleet file is read with the experiment files' YAML checks", "[fleet]") {
    // The shared toolkit (experiment/yaml_reader.h): bytes that are not UTF-8 are refused at
    // their place, as in experiment files; a fleet file used not to check them.
    CHECK(fleet_error("hosts:\n  - uri: qemu:///sys\xfftem\n") ==
          "fleet.yaml:2:21: invalid UTF-8 (byte 0xff): a fleet file is UTF-8 text");
    CHECK(fleet_error("hosts: [{uri: qemu:///system, slots: 1, slot: 2}]\n") ==
          "fleet.yaml:1:41: unknown key \"slot\" (did you mean \"slots\"?)");
}
