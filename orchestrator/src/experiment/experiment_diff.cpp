#include "experiment/experiment_diff.h"

#include "experiment/yaml_reader.h"

#include <algorithm>
#include <yaml-cpp/yaml.h>

namespace bb {

namespace {

std::string joined(const std::string& prefix, const std::string& key) {
    return prefix.empty() ? key : prefix + "." + key;
}

void collect(const YAML::Node& a, const YAML::Node& b, const std::string& path,
             std::vector<std::string>& out) {
    if (!a.IsDefined() || !b.IsDefined()) { // a key one file has and the other lacks
        if (a.IsDefined() != b.IsDefined()) {
            out.push_back(path);
        }
        return;
    }
    if (a.IsMap() && b.IsMap()) {
        std::vector<std::string> keys;
        for (const auto& node : {a, b}) {
            for (const auto& item : node) {
                const std::string key = item.first.as<std::string>();
                if (std::find(keys.begin(), keys.end(), key) == keys.end()) {
                    keys.push_back(key);
                }
            }
        }
        for (const auto& key : keys) {
            if (path.empty() && (key == "name" || key == "description")) {
                continue;
            }
            collect(a[key], b[key], joined(path, key), out);
        }
        return;
    }
    if (YAML::Dump(a) != YAML::Dump(b)) {
        out.push_back(path.empty() ? "(the file)" : path);
    }
}

} // namespace

std::vector<std::string> experiment_differences(const std::string& yaml_a,
                                                const std::string& yaml_b) {
    std::vector<std::string> out;
    try {
        const YAML::Node a = YAML::Load(yaml_a);
        const YAML::Node b = YAML::Load(yaml_b);
        // Stored texts came through YamlReader::load once, but a database is input too: a
        // document that contains itself would overflow the stack in collect or YAML::Dump.
        const auto ignore = [](const YAML::Node&) {};
        if (walk_yaml_bounded(a, ignore) || walk_yaml_bounded(b, ignore)) {
            return yaml_a == yaml_b ? out : std::vector<std::string>{"(the file)"};
        }
        collect(a, b, "", out);
    } catch (const YAML::Exception&) {
        if (yaml_a != yaml_b) {
            out = {"(the file)"};
        }
    }
    return out;
}

} // namespace bb
