#pragma once
#include <array>
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

// The kernel-build vocabularies, stated once: the experiment parser checks a file against them
// and the builder turns them into Kconfig symbols.
// HZ is a Kconfig *choice*: asking for 100 means HZ_100=y, every other HZ_* =n and HZ=100.
inline constexpr std::array<int, 4> k_hz_choices{100, 250, 300, 1000};
// "100, 250, 300 or 1000", for messages.
inline std::string hz_choices_text() {
    std::string text;
    for (size_t i = 0; i < k_hz_choices.size(); ++i) {
        text += (i == 0                         ? ""
                 : i + 1 == k_hz_choices.size() ? " or "
                                                : ", ") +
                std::to_string(k_hz_choices[i]);
    }
    return text;
}
// Preemption models, also a choice, in documentation order, with the symbol each sets.
struct PreemptModel {
    const char* name;
    const char* symbol;
};
inline constexpr std::array<PreemptModel, 3> k_preempt_models{
    {{"none", "CONFIG_PREEMPT_NONE"},
     {"voluntary", "CONFIG_PREEMPT_VOLUNTARY"},
     {"full", "CONFIG_PREEMPT"}}};
inline std::vector<std::string> preempt_model_names() {
    std::vector<std::string> names;
    for (const auto& model : k_preempt_models) {
        names.emplace_back(model.name);
    }
    return names;
}
// The bases make knows by name (anything else is a path to a .config).
inline constexpr std::array<const char*, 3> k_config_bases{"tinyconfig", "defconfig",
                                                           "allnoconfig"};

KconfigValues hz_options(int hz);
KconfigValues preempt_options(const std::string& model);

struct ConfigRequest {
    std::string base = "tinyconfig"; // one of k_config_bases, or a path to a .config
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
