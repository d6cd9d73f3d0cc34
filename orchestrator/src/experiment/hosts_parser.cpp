#include "experiment/hosts_parser.h"

#include "experiment/yaml_reader.h"
#include "util/error.h"
#include "vm/libvirt_uri.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <fmt/format.h>
#include <fstream>
#include <set>
#include <sstream>

namespace bb {

namespace {
const std::vector<std::string> k_host_keys{"uri", "slots", "allow_uri_programs"};
const std::vector<std::string> k_fleet_keys{"hosts"};

// A libvirt URI: a driver scheme (qemu, qemu+ssh, qemu+tcp, ...) then "://".
bool is_libvirt_uri(const std::string& text) {
    const size_t scheme_end = text.find("://");
    if (scheme_end == std::string::npos || scheme_end == 0) {
        return false;
    }
    for (size_t i = 0; i < scheme_end; ++i) {
        const char c = text[i];
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '+' && c != '-') {
            return false;
        }
    }
    return text.find_first_of(" \t\n") == std::string::npos;
}

const char* expected_value(const std::string& key) {
    return key == "uri" ? "a libvirt URI" : key == "slots" ? "an integer" : "true or false";
}

void read_uri(FleetHost& host, const YAML::Node& value, const YamlReader& reader) {
    if (!is_libvirt_uri(value.Scalar())) {
        reader.fail(value, fmt::format("uri: \"{}\" is not a libvirt URI (expected e.g. "
                                       "qemu:///system or qemu+ssh://root@HOST/system)",
                                       value.Scalar()));
    }
    host.uri = value.Scalar();
}

void read_slots(FleetHost& host, const YAML::Node& node, const YamlReader& reader) {
    const std::string& value = node.Scalar();
    int slots = 0;
    const char* end = value.data() + value.size();
    const auto [ptr, ec] = std::from_chars(value.data(), end, slots);
    if (ec != std::errc() || ptr != end || value.empty() || slots < 1) {
        reader.fail(node, fmt::format("slots: expected an integer >= 1, got \"{}\"", value));
    }
    host.slots = slots;
}

void read_allow(FleetHost& host, const YAML::Node& node, const YamlReader& reader) {
    const std::string& value = node.Scalar();
    if (value != "true" && value != "false") {
        reader.fail(node,
                    fmt::format("allow_uri_programs: expected true or false, got \"{}\"", value));
    }
    host.allow_uri_programs = value == "true";
}

FleetHost read_host(const YAML::Node& item, const YamlReader& reader) {
    if (!item.IsMap()) {
        reader.fail(
            item,
            fmt::format("hosts: expected a mapping such as {{uri: qemu:///system, slots: 1}}, "
                        "got {}",
                        describe(item)));
    }
    FleetHost host;
    YAML::Mark uri_mark;
    for (const auto& [key, entry] : reader.mapping(item, "hosts", k_host_keys)) {
        if (!entry.value.IsScalar()) {
            reader.fail(entry.value, fmt::format("{}: expected {}, got {}", key,
                                                 expected_value(key), describe(entry.value)));
        }
        if (key == "uri") {
            read_uri(host, entry.value, reader);
            uri_mark = entry.value.Mark();
        } else if (key == "slots") {
            read_slots(host, entry.value, reader);
        } else {
            read_allow(host, entry.value, reader);
        }
    }
    if (host.uri.empty()) {
        reader.fail(item, "hosts: missing required key \"uri\" (expected a libvirt URI)");
    }
    // Refused here as well as at connect time, so `--validate` catches it at its place.
    if (const std::string why = uri_program_reason(host.uri);
        !why.empty() && !host.allow_uri_programs) {
        reader.fail(uri_mark,
                    fmt::format("uri: \"{}\" makes libvirt run a program ({}); refused unless this "
                                "host has allow_uri_programs: true (see docs/fleet.md)",
                                host.uri, why));
    }
    return host;
}
} // namespace

std::vector<FleetHost> parse_hosts(const YAML::Node& list, const std::string& file_name) {
    const YamlReader reader(file_name);
    if (!list.IsSequence() || list.size() == 0) {
        reader.fail(
            list, fmt::format("hosts: expected a non-empty list of {{uri: ..., slots: N}}, got {}",
                              list.IsSequence() ? "an empty list" : describe(list)));
    }
    std::vector<FleetHost> hosts;
    std::set<std::string> uris;
    for (const auto& item : list) {
        FleetHost host = read_host(item, reader);
        if (!uris.insert(host.uri).second) {
            reader.fail(item,
                        fmt::format("hosts: \"{}\" is listed twice (give it more slots instead)",
                                    host.uri));
        }
        hosts.push_back(std::move(host));
    }
    return hosts;
}

std::vector<FleetHost> parse_fleet_file(std::string_view text, const std::string& file_name) {
    const YamlReader reader(file_name);
    const YAML::Node root = reader.load(text, "a fleet");
    if (!root.IsMap()) {
        reader.fail(root,
                    fmt::format("expected a mapping with the key hosts, got {}", describe(root)));
    }
    const Entries entries = reader.mapping(root, "", k_fleet_keys);
    const Entry& hosts =
        reader.required(entries, root, "", "hosts", "a list of {uri: ..., slots: N}");
    return parse_hosts(hosts.value, file_name);
}

std::vector<FleetHost> load_fleet_file(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        throw Error(fmt::format("--hosts: cannot read fleet file {}: {}", path.string(),
                                std::strerror(errno)));
    }
    std::ostringstream text;
    text << in.rdbuf();
    return parse_fleet_file(text.str(), path.string());
}

} // namespace bb
