#include "console/param_check.h"

#include "console/kernel_cmdline.h"

#include <fmt/format.h>

#include <array>
#include <cerrno>
#include <cstdlib>
#include <utility>

namespace bb {

namespace {
constexpr std::array<std::pair<ParamReadback::State, std::string_view>, 6> k_states{{
    {ParamReadback::State::Applied, "applied"},
    {ParamReadback::State::Unreadable, "unreadable"},
    {ParamReadback::State::NoParameter, "no-parameter"},
    {ParamReadback::State::NoModule, "no-module"},
    {ParamReadback::State::ModuleFile, "module-file"},
    {ParamReadback::State::Workload, "workload"},
}};

std::string_view next_word(std::string_view& rest) {
    const size_t start = rest.find_first_not_of(' ');
    if (start == std::string_view::npos) {
        rest = {};
        return {};
    }
    rest.remove_prefix(start);
    const size_t end = std::min(rest.find(' '), rest.size());
    const std::string_view word = rest.substr(0, end);
    rest.remove_prefix(end);
    return word;
}

// kstrtobool's reading of a value; no value at all means true for a bool parameter.
std::optional<char> as_bool(const std::optional<std::string>& text) {
    if (!text || text->empty()) {
        return 'Y';
    }
    if (*text == "on") {
        return 'Y';
    }
    if (*text == "off") {
        return 'N';
    }
    switch ((*text)[0]) {
    case 'y':
    case 'Y':
    case 't':
    case 'T':
    case '1':
        return 'Y';
    case 'n':
    case 'N':
    case 'f':
    case 'F':
    case '0':
        return 'N';
    default:
        return std::nullopt;
    }
}

// An integer as the kernel parses a parameter (base 0: 0x.. hex, 0.. octal) or prints it.
std::optional<long double> as_integer(const std::string& text, int base) {
    if (text.empty()) {
        return std::nullopt;
    }
    errno = 0;
    char* end = nullptr;
    if (text[0] == '-') {
        const long long value = std::strtoll(text.c_str(), &end, base);
        if (errno != 0 || *end != '\0') {
            return std::nullopt;
        }
        return static_cast<long double>(value);
    }
    const unsigned long long value = std::strtoull(text.c_str(), &end, base);
    if (errno != 0 || *end != '\0' || text[0] == '+' || text[0] == ' ') {
        return std::nullopt;
    }
    return static_cast<long double>(value);
}

// The words of `Unknown kernel command line parameters "a b=1", will be passed to user space.`
std::vector<std::string> unknown_words(const std::vector<std::string>& lines) {
    constexpr std::string_view k_open = "Unknown kernel command line parameters \"";
    std::vector<std::string> words;
    for (const auto& line : lines) {
        const size_t at = line.find(k_open);
        if (at == std::string::npos) {
            continue;
        }
        std::string_view rest = std::string_view(line).substr(at + k_open.size());
        rest = rest.substr(0, rest.rfind('"'));
        for (auto word = next_word(rest); !word.empty(); word = next_word(rest)) {
            words.emplace_back(word);
        }
    }
    return words;
}

std::string as_written(const KernelParam& param) {
    return param.value ? param.name + "=" + *param.value : param.name;
}

const ParamReadback* readback_for(const std::vector<ParamReadback>& readbacks,
                                  const std::string& name) {
    const std::string canonical = canonical_param_name(name);
    for (const auto& readback : readbacks) {
        if (canonical_param_name(readback.name) == canonical) {
            return &readback;
        }
    }
    return nullptr;
}

std::optional<std::string> dotted_problem(const KernelParam& param, const ParamReadback& readback,
                                          const EarlyParamTest& is_early_param) {
    const size_t dot = param.name.find('.');
    const std::string module = canonical_param_name(param.name.substr(0, dot));
    const std::string name = canonical_param_name(param.name.substr(dot + 1));
    switch (readback.state) {
    case ParamReadback::State::Applied:
        if (same_param_value(param.value, readback.value)) {
            return std::nullopt;
        }
        return fmt::format("/sys/module/{}/parameters/{} reads \"{}\"", module, name,
                           readback.value);
    case ParamReadback::State::NoParameter:
        return fmt::format("module {} has no parameter {}", module, name);
    case ParamReadback::State::NoModule:
        if (is_early_param && is_early_param(param.name)) {
            return std::nullopt; // an early parameter: nothing in sysfs to read back
        }
        return fmt::format("no module {} in this kernel: not built in, no {}.ko in the image",
                           module, module);
    case ParamReadback::State::Unreadable:
    case ParamReadback::State::ModuleFile:
    case ParamReadback::State::Workload:
        return std::nullopt; // cannot be read back at boot, or not the kernel's: not judged
    }
    return std::nullopt;
}
} // namespace

std::optional<ParamReadback> parse_param_readback(std::string_view rest) {
    ParamReadback readback;
    readback.name = std::string(next_word(rest));
    const std::string_view state = next_word(rest);
    if (readback.name.empty() || readback.name.find('.') == std::string::npos) {
        return std::nullopt;
    }
    bool known = false;
    for (const auto& [value, text] : k_states) {
        if (text == state) {
            readback.state = value;
            known = true;
        }
    }
    if (!known) {
        return std::nullopt;
    }
    if (readback.state == ParamReadback::State::Applied) {
        // The value is the rest of the line after one space: a string parameter may hold spaces.
        if (!rest.empty() && rest.front() == ' ') {
            rest.remove_prefix(1);
        }
        readback.value = std::string(rest);
    }
    return readback;
}

bool same_param_value(const std::optional<std::string>& requested, std::string_view actual) {
    if (requested && *requested == actual) {
        return true;
    }
    if (actual == "Y" || actual == "N") {
        const auto wanted = as_bool(requested);
        return wanted && *wanted == actual[0];
    }
    if (!requested) {
        return false;
    }
    const auto wanted = as_integer(*requested, 0);
    const auto shown = as_integer(std::string(actual), 10);
    return wanted && shown && *wanted == *shown;
}

std::vector<ParamProblem> check_params(std::string_view cmdline,
                                       const std::vector<ParamReadback>& readbacks,
                                       const std::vector<std::string>& unknown_lines,
                                       const EarlyParamTest& is_early_param) {
    std::vector<KernelParam> params = parse_kernel_cmdline(cmdline);
    // The kernel applies parameters in order, so a later value of the same name wins.
    std::vector<KernelParam> last;
    for (auto it = params.rbegin(); it != params.rend(); ++it) {
        bool seen = false;
        for (const auto& kept : last) {
            seen = seen || canonical_param_name(kept.name) == canonical_param_name(it->name);
        }
        if (!seen) {
            last.insert(last.begin(), *it);
        }
    }
    const std::vector<std::string> unknown = unknown_words(unknown_lines);
    std::vector<ParamProblem> problems;
    for (const auto& param : last) {
        const std::string written = as_written(param);
        if (param.name.find('.') != std::string::npos) {
            const ParamReadback* readback = readback_for(readbacks, param.name);
            if (!readback) {
                continue;
            }
            if (auto why = dotted_problem(param, *readback, is_early_param)) {
                problems.push_back({written, std::move(*why)});
            }
            continue;
        }
        for (const auto& word : unknown) {
            if (word == written || word == param.name) {
                problems.push_back({written, "the kernel reported it as unknown"});
                break;
            }
        }
    }
    return problems;
}

std::string describe_param_problems(const std::vector<ParamProblem>& problems) {
    std::string text;
    for (const auto& problem : problems) {
        text += fmt::format("{}{} ({})", text.empty() ? "param-not-applied: " : "; ", problem.param,
                            problem.why);
    }
    return text;
}

} // namespace bb
