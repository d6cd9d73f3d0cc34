#include "kernel/kconfig.h"

#include "util/error.h"
#include "util/paths.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <fmt/format.h>
#include <set>
#include <sstream>

namespace bb {

namespace {

bool valid_symbol(std::string_view name) {
    if (name.rfind("CONFIG_", 0) != 0 || name.size() <= 7) {
        return false;
    }
    for (char c : name) {
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) {
            return false;
        }
    }
    return true;
}
} // namespace

KconfigValues parse_kconfig(std::string_view text, const std::string& source) {
    KconfigValues values;
    std::istringstream lines{std::string(text)};
    int number = 0;
    for (std::string line; std::getline(lines, line);) {
        ++number;
        while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) {
            line.pop_back();
        }
        if (line.empty()) {
            continue;
        }
        if (line.rfind("# CONFIG_", 0) == 0 && line.size() > 11 &&
            line.compare(line.size() - 11, 11, " is not set") == 0) {
            values[line.substr(2, line.size() - 13)] = "n";
            continue;
        }
        if (line.front() == '#') {
            continue;
        }
        const auto equals = line.find('=');
        const std::string name = line.substr(0, equals);
        if (equals == std::string::npos || !valid_symbol(name)) {
            throw Error(fmt::format("{}:{}: expected CONFIG_NAME=value or '# CONFIG_NAME is not "
                                    "set', got \"{}\"",
                                    source, number, line));
        }
        values[name] = line.substr(equals + 1);
    }
    return values;
}

KconfigValues hz_options(int hz) {
    if (std::find(k_hz_choices.begin(), k_hz_choices.end(), hz) == k_hz_choices.end()) {
        throw Error(fmt::format("hz: {} is not a Kconfig choice (use {})", hz, hz_choices_text()));
    }
    KconfigValues values;
    for (int choice : k_hz_choices) {
        values[fmt::format("CONFIG_HZ_{}", choice)] = choice == hz ? "y" : "n";
    }
    values["CONFIG_HZ"] = std::to_string(hz);
    return values;
}

KconfigValues preempt_options(const std::string& model) {
    const auto wanted = std::find_if(k_preempt_models.begin(), k_preempt_models.end(),
                                     [&model](const PreemptModel& m) { return model == m.name; });
    if (wanted == k_preempt_models.end()) {
        throw Error(fmt::format("preempt: '{}' is not one of {}", model,
                                fmt::join(preempt_model_names(), ", ")));
    }
    KconfigValues values;
    for (const auto& candidate : k_preempt_models) {
        values[candidate.symbol] = &candidate == &*wanted ? "y" : "n";
    }
    return values;
}

KconfigValues requested_options(const ConfigRequest& request) {
    KconfigValues wanted;
    auto merge = [&wanted](const KconfigValues& more) {
        for (const auto& [name, value] : more) {
            wanted[name] = value;
        }
    };
    for (const auto& fragment : request.fragments) {
        merge(parse_kconfig(read_file(fragment), fragment.string()));
    }
    if (request.hz) {
        merge(hz_options(*request.hz));
    }
    if (request.preempt) {
        merge(preempt_options(*request.preempt));
    }
    std::string overrides;
    for (const auto& line : request.overrides) {
        overrides += line + "\n";
    }
    merge(parse_kconfig(overrides, "--set"));
    return wanted;
}

std::string merge_into_config(std::string_view config_text, const KconfigValues& wanted) {
    std::ostringstream out;
    std::istringstream lines{std::string(config_text)};
    std::set<std::string> written;
    for (std::string line; std::getline(lines, line);) {
        std::string name;
        if (line.rfind("CONFIG_", 0) == 0) {
            name = line.substr(0, line.find('='));
        } else if (line.rfind("# CONFIG_", 0) == 0 &&
                   line.find(" is not set") != std::string::npos) {
            name = line.substr(2, line.find(' ', 2) - 2);
        }
        if (const auto it = wanted.find(name); !name.empty() && it != wanted.end()) {
            if (written.insert(name).second) {
                out << (it->second == "n" ? fmt::format("# {} is not set", name)
                                          : fmt::format("{}={}", name, it->second))
                    << "\n";
            }
            continue;
        }
        out << line << "\n";
    }
    for (const auto& [name, value] : wanted) {
        if (!written.count(name)) {
            out << (value == "n" ? fmt::format("# {} is not set", name)
                                 : fmt::format("{}={}", name, value))
                << "\n";
        }
    }
    return out.str();
}

std::vector<ConfigMismatch> verify_config(const KconfigValues& wanted, const KconfigValues& got) {
    std::vector<ConfigMismatch> mismatches;
    for (const auto& [name, value] : wanted) {
        const auto it = got.find(name);
        const std::string actual = it == got.end() ? "n" : it->second;
        if (actual != value) {
            mismatches.push_back({name, value, it == got.end() ? "(absent)" : actual});
        }
    }
    return mismatches;
}

} // namespace bb
