#pragma once
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bb {

// Kconfig assignments, "CONFIG_FOO" -> "y" | "m" | "n" | "123" | "\"text\"". "n" stands for
// both "# CONFIG_FOO is not set" and absence.
using KconfigValues = std::map<std::string, std::string>;

// Parses .config / merge_config fragment text. Throws Error naming source:line for a line that
// is neither an assignment, a "not set" comment, a comment nor blank.
KconfigValues parse_kconfig(std::string_view text, const std::string& source = "<config>");

// HZ is a Kconfig *choice*: asking for 100 means HZ_100=y, every other HZ_* =n and HZ=100.
KconfigValues hz_options(int hz);
// Preemption model, also a choice: none | voluntary | full.
KconfigValues preempt_options(const std::string& model);

struct ConfigRequest {
    std::string base = "tinyconfig"; // tinyconfig | defconfig | allnoconfig | path to a .config
    std::vector<std::filesystem::path> fragments;
    std::optional<int> hz;
    std::optional<std::string> preempt;
    std::vector<std::string> overrides; // "CONFIG_X=y" lines, applied last
};

// Every option the request asks for, later sources overriding earlier ones: fragments in
// order, then hz, then preemption, then overrides.
KconfigValues requested_options(const ConfigRequest& request);

// Applies `wanted` to the text of a .config (replacing existing lines, appending new ones).
std::string merge_into_config(std::string_view config_text, const KconfigValues& wanted);

struct ConfigMismatch {
    std::string option;
    std::string wanted;
    std::string got;
};

// Which requested options did not survive olddefconfig (a dependency missing, a typo).
std::vector<ConfigMismatch> verify_config(const KconfigValues& wanted, const KconfigValues& got);

} // namespace bb
