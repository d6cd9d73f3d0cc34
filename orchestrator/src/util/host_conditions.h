#pragma once
// The host settings that change boot timing and can be read without privileges (issue 30
// item 4; docs/reliability.md, "Host conditions"): CPU model and microcode, frequency governor
// and boost, SMT, transparent huge pages, KSM, the host kernel, isolated and nohz_full CPUs.
// pyperf's `system show` and the Phoronix suite check the same before they trust a number.
// Each boot stores them with the qemu version it ran (schema 12), so a night whose host
// changed says so beside its comparison (`bootbench history`, `nightly`), and `doctor`
// says what would reduce the noise.
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bb {

// Name and value, in a fixed order; a value the host does not expose reads "not exposed".
struct HostCondition {
    std::string name;
    std::string value;
};

constexpr const char* k_not_exposed = "not exposed";

// The first "key : value" line of `root`/proc/cpuinfo with this key (x86's "model name",
// "microcode"); none when no line has it.
std::optional<std::string> cpuinfo_field(const std::filesystem::path& root, std::string_view key);

// Reads the conditions under `root` ("/" on a real host; a unit test passes a directory with
// the same proc and sys paths).
std::vector<HostCondition> read_host_conditions(const std::filesystem::path& root = "/");

// As stored: one JSON object; its keys sort, so equal conditions dump to equal text (the
// store keeps each distinct text once).
nlohmann::json host_conditions_json(const std::vector<HostCondition>& conditions);

// A condition whose value differs between two stored objects; a key only one of them has
// reads "(not recorded)" on the other side.
struct HostConditionChange {
    std::string name;
    std::string before;
    std::string after;
    bool operator==(const HostConditionChange&) const = default;
};

// The changes between two stored objects, by name; empty when they agree.
std::vector<HostConditionChange> host_condition_changes(const nlohmann::json& before,
                                                        const nlohmann::json& after);

// What would make timings less noisy, for a condition that could be better (`bootbench
// doctor`); empty when this value is already the quiet one or cannot be judged.
std::string noise_advice(const HostCondition& condition);

} // namespace bb
