#include "experiment/hosts_parser.h"

#include "experiment/did_you_mean.h"
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

[[noreturn]] void fail(const std::string& file, const YAML::Mark& mark,
                       const std::string& message) {
    const int line = mark.line >= 0 ? mark.line + 1 : 1;
    const int column = mark.column >= 0 ? mark.column + 1 : 1;
    throw Error(fmt::format("{}:{}:{}: {}", file, line, column, message));
}

std::string describe(const YAML::Node& node) {
    switch (node.Type()) {
    case YAML::NodeType::Scalar:
        return fmt::format("\"{}\"", node.Scalar());
    case YAML::NodeType::Sequence:
        return "a list";
    case YAML::NodeType::Map:
        return "a mapping";
    default:
        return "nothing";
    }
}

void check_key(const std::string& file, const YAML::Node& key,
               const std::vector<std::string>& allowed) {
    if (!key.IsScalar()) {
        fail(file, key.Mark(), fmt::format("expected a key name, got {}", describe(key)));
    }
    const std::string name = key.Scalar();
    if (std::find(allowed.begin(), allowed.end(), name) != allowed.end()) {
        return;
    }
    const auto suggestion = did_you_mean(name, allowed);
    std::string expected;
    for (const auto& word : allowed) {
        expected += (expected.empty() ? "" : ", ") + word;
    }
    fail(file, key.Mark(),
         suggestion ? fmt::format("unknown key \"{}\" (did you mean \"{}\"?)", name, *suggestion)
                    : fmt::format("unknown key \"{}\" (expected one of: {})", name, expected));
}

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

void read_uri(FleetHost& host, const YAML::Node& value, const std::string& file) {
    if (!is_libvirt_uri(value.Scalar())) {
        fail(file, value.Mark(),
             fmt::format("uri: \"{}\" is not a libvirt URI (expected e.g. "
                         "qemu:///system or qemu+ssh://root@HOST/system)",
                         value.Scalar()));
    }
    host.uri = value.Scalar();
}

void read_slots(FleetHost& host, const YAML::Node& node, const std::string& file) {
    const std::string& value = node.Scalar();
    int slots = 0;
    const char* end = value.data() + value.size();
    const auto [ptr, ec] = std::from_chars(value.data(), end, slots);
    if (ec != std::errc() || ptr != end || value.empty() || slots < 1) {
        fail(file, node.Mark(), fmt::format("slots: expected an integer >= 1, got \"{}\"", value));
    }
    host.slots = slots;
}

void read_allow(FleetHost& host, const YAML::Node& node, const std::string& file) {
    const std::string& value = node.Scalar();
    if (value != "true" && value != "false") {
        fail(file, node.Mark(),
             fmt::format("allow_uri_programs: expected true or false, got \"{}\"", value));
    }
    host.allow_uri_programs = value == "true";
}

FleetHost read_host(const YAML::Node& item, const std::string& file) {
    if (!item.IsMap()) {
        fail(file, item.Mark(),
             fmt::format("hosts: expected a mapping such as {{uri: qemu:///system, slots: 1}}, "
                         "got {}",
                         describe(item)));
    }
    FleetHost host;
    std::set<std::string> seen;
    YAML::Mark uri_mark;
    for (const auto& pair : item) {
        check_key(file, pair.first, k_host_keys);
        const std::string key = pair.first.Scalar();
        if (!seen.insert(key).second) {
            fail(file, pair.first.Mark(), fmt::format("duplicate key \"{}\"", key));
        }
        if (!pair.second.IsScalar()) {
            fail(file, pair.second.Mark(),
                 fmt::format("{}: expected {}, got {}", key, expected_value(key),
                             describe(pair.second)));
        }
        if (key == "uri") {
            read_uri(host, pair.second, file);
            uri_mark = pair.second.Mark();
        } else if (key == "slots") {
            read_slots(host, pair.second, file);
        } else {
            read_allow(host, pair.second, file);
        }
    }
    if (host.uri.empty()) {
        fail(file, item.Mark(), "hosts: missing required key \"uri\" (expected a libvirt URI)");
    }
    // Refused here as well as at connect time, so `--validate` catches it at its place.
    if (const std::string why = uri_program_reason(host.uri);
        !why.empty() && !host.allow_uri_programs) {
        fail(file, uri_mark,
             fmt::format("uri: \"{}\" makes libvirt run a program ({}); refused unless this "
                         "host has allow_uri_programs: true (see docs/fleet.md)",
                         host.uri, why));
    }
    return host;
}
} // namespace

std::vector<FleetHost> parse_hosts(const YAML::Node& list, const std::string& file_name) {
    if (!list.IsSequence() || list.size() == 0) {
        fail(file_name, list.Mark(),
             fmt::format("hosts: expected a non-empty list of {{uri: ..., slots: N}}, got {}",
                         list.IsSequence() ? "an empty list" : describe(list)));
    }
    std::vector<FleetHost> hosts;
    std::set<std::string> uris;
    for (const auto& item : list) {
        FleetHost host = read_host(item, file_name);
        if (!uris.insert(host.uri).second) {
            fail(file_name, item.Mark(),
                 fmt::format("hosts: \"{}\" is listed twice (give it more slots instead)",
                             host.uri));
        }
        hosts.push_back(std::move(host));
    }
    return hosts;
}

std::vector<FleetHost> parse_fleet_file(std::string_view text, const std::string& file_name) {
    YAML::Node root;
    try {
        root = YAML::Load(std::string(text));
    } catch (const YAML::Exception& e) {
        fail(file_name, e.mark, "invalid YAML: " + e.msg);
    }
    if (!root.IsMap()) {
        fail(file_name, root.Mark(),
             fmt::format("expected a mapping with the key hosts, got {}", describe(root)));
    }
    for (const auto& pair : root) {
        check_key(file_name, pair.first, k_fleet_keys);
    }
    if (!root["hosts"]) {
        fail(file_name, root.Mark(),
             "missing required key \"hosts\" (expected a list of "
             "{uri: ..., slots: N})");
    }
    return parse_hosts(root["hosts"], file_name);
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
