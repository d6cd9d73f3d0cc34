#include "util/host_conditions.h"

#include "util/trim.h"

#include <algorithm>
#include <fstream>
#include <optional>
#include <set>

namespace bb {

namespace fs = std::filesystem;

namespace {

std::optional<std::string> first_line(const fs::path& path) {
    std::ifstream in(path);
    std::string line;
    if (!in || !std::getline(in, line)) {
        return std::nullopt;
    }
    return trimmed(line);
}

std::string or_not_exposed(const std::optional<std::string>& value) {
    return value && !value->empty() ? *value : k_not_exposed;
}

// sysfs shows a choice as "always [madvise] never": the bracketed word is the one in force.
std::optional<std::string> chosen(const std::optional<std::string>& choices) {
    if (!choices) {
        return std::nullopt;
    }
    const auto open = choices->find('[');
    const auto close = choices->find(']', open);
    if (open == std::string::npos || close == std::string::npos) {
        return choices;
    }
    return choices->substr(open + 1, close - open - 1);
}

// Every CPU's governor, each distinct one once ("performance", or "ondemand,performance").
std::optional<std::string> governors(const fs::path& root) {
    std::set<std::string> seen;
    std::error_code error;
    for (const auto& entry : fs::directory_iterator(root / "sys/devices/system/cpu", error)) {
        const std::string name = entry.path().filename().string();
        if (name.size() > 3 && name.rfind("cpu", 0) == 0 &&
            std::all_of(name.begin() + 3, name.end(), ::isdigit)) {
            if (auto governor = first_line(entry.path() / "cpufreq/scaling_governor")) {
                seen.insert(*governor);
            }
        }
    }
    if (seen.empty()) {
        return std::nullopt;
    }
    std::string joined;
    for (const auto& governor : seen) {
        joined += (joined.empty() ? "" : ",") + governor;
    }
    return joined;
}

// cpufreq's generic switch, else intel_pstate's inverted one.
std::optional<std::string> boost(const fs::path& root) {
    const fs::path cpu = root / "sys/devices/system/cpu";
    if (auto generic = first_line(cpu / "cpufreq/boost")) {
        return *generic == "1" ? "on" : "off";
    }
    if (auto no_turbo = first_line(cpu / "intel_pstate/no_turbo")) {
        return *no_turbo == "1" ? "off" : "on";
    }
    return std::nullopt;
}

std::optional<std::string> ksm(const fs::path& root) {
    const auto run = first_line(root / "sys/kernel/mm/ksm/run");
    if (!run) {
        return std::nullopt;
    }
    return *run == "0" ? "stopped" : *run == "1" ? "running" : "unmerging";
}

// A CPU list, "none" when sysfs shows none ("" or "(null)").
std::optional<std::string> cpu_list(const fs::path& path) {
    std::optional<std::string> list = first_line(path);
    if (list && (list->empty() || *list == "(null)")) {
        return "none";
    }
    return list;
}

std::optional<std::string> host_kernel(const fs::path& root) {
    const auto release = first_line(root / "proc/sys/kernel/osrelease");
    const auto version = first_line(root / "proc/sys/kernel/version");
    if (!release) {
        return std::nullopt;
    }
    return version ? *release + " " + *version : *release;
}

} // namespace

std::optional<std::string> cpuinfo_field(const fs::path& root, std::string_view key) {
    std::ifstream cpuinfo(root / "proc/cpuinfo");
    for (std::string line; std::getline(cpuinfo, line);) {
        const auto colon = line.find(':');
        if (colon == std::string::npos || trimmed(line.substr(0, colon)) != key) {
            continue;
        }
        const auto start = line.find_first_not_of(" \t", colon + 1);
        return start == std::string::npos ? std::string() : trimmed(line.substr(start));
    }
    return std::nullopt;
}

std::vector<HostCondition> read_host_conditions(const fs::path& root) {
    const fs::path cpu = root / "sys/devices/system/cpu";
    const fs::path thp = root / "sys/kernel/mm/transparent_hugepage";
    return {
        {"cpu_model", or_not_exposed(cpuinfo_field(root, "model name"))},
        {"microcode", or_not_exposed(cpuinfo_field(root, "microcode"))},
        {"governor", or_not_exposed(governors(root))},
        {"boost", or_not_exposed(boost(root))},
        {"smt", or_not_exposed(first_line(cpu / "smt/control"))},
        {"thp", or_not_exposed(chosen(first_line(thp / "enabled")))},
        {"thp_defrag", or_not_exposed(chosen(first_line(thp / "defrag")))},
        {"ksm", or_not_exposed(ksm(root))},
        {"host_kernel", or_not_exposed(host_kernel(root))},
        {"isolated_cpus", or_not_exposed(cpu_list(cpu / "isolated"))},
        {"nohz_full", or_not_exposed(cpu_list(cpu / "nohz_full"))},
    };
}

nlohmann::json host_conditions_json(const std::vector<HostCondition>& conditions) {
    nlohmann::json object = nlohmann::json::object();
    for (const auto& condition : conditions) {
        object[condition.name] = condition.value;
    }
    return object;
}

std::vector<HostConditionChange> host_condition_changes(const nlohmann::json& before,
                                                        const nlohmann::json& after) {
    std::set<std::string> names;
    for (const auto* side : {&before, &after}) {
        if (!side->is_object()) {
            continue; // not a stored object (an unreadable row): nothing to name
        }
        for (const auto& [name, value] : side->items()) {
            names.insert(name);
        }
    }
    const auto value_in = [](const nlohmann::json& side, const std::string& name) {
        return side.contains(name) && side[name].is_string() ? side[name].get<std::string>()
                                                             : std::string("(not recorded)");
    };
    std::vector<HostConditionChange> changes;
    for (const auto& name : names) {
        HostConditionChange change{name, value_in(before, name), value_in(after, name)};
        if (change.before != change.after) {
            changes.push_back(std::move(change));
        }
    }
    return changes;
}

std::string noise_advice(const HostCondition& condition) {
    const std::string& name = condition.name;
    const std::string& value = condition.value;
    if (name == "governor" && value != k_not_exposed && value != "performance") {
        return "the clock follows the load; `cpupower frequency-set -g performance` holds it";
    }
    if (name == "boost" && value == "on") {
        return "the clock depends on temperature and the other cores' load; write 0 to "
               "/sys/devices/system/cpu/cpufreq/boost (or 1 to intel_pstate/no_turbo)";
    }
    if (name == "smt" && value == "on") {
        return "a sibling thread's work slows a guest's vCPU; `echo off > "
               "/sys/devices/system/cpu/smt/control`, or keep the siblings idle";
    }
    if (name == "thp" && value == "always") {
        return "khugepaged and compaction stall guest memory faults at random; `madvise` keeps "
               "them out of qemu's way";
    }
    if (name == "ksm" && value == "running") {
        return "its scans take CPU and merged pages add copy-on-write faults to guests; write 2 "
               "to /sys/kernel/mm/ksm/run";
    }
    if (name == "isolated_cpus" && value == "none") {
        return "guests share every CPU with the host's other tasks; `isolcpus=` and "
               "`nohz_full=` on the host's command line keep those off the CPUs guests run on";
    }
    return {};
}

} // namespace bb
