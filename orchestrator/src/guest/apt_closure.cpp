#include "guest/apt_closure.h"

#include <algorithm>

namespace bb {

std::vector<std::string> apt_closure_argv(const std::string& package, Arch arch,
                                          const std::filesystem::path& empty_status) {
    const std::string native = std::string(debian_name(arch));
    return {"apt-get", "-s",
            "-q",      "--no-install-recommends",
            "-o",      "Dir::State::status=" + empty_status.string(),
            "-o",      "APT::Architecture=" + native,
            "-o",      "Debug::NoLocking=1",
            "install", package + ":" + native};
}

std::vector<std::string> parse_apt_simulation(std::string_view output) {
    std::vector<std::string> packages;
    while (!output.empty()) {
        const size_t newline = output.find('\n');
        const std::string_view line = output.substr(0, newline);
        output.remove_prefix(newline == std::string_view::npos ? output.size() : newline + 1);
        if (line.rfind("Inst ", 0) != 0) {
            continue;
        }
        // "Inst NAME (VERSION ARCHIVE [ARCH])", possibly followed by " [REPLACED...]" or "[]".
        const std::string_view rest = line.substr(5);
        const std::string_view name = rest.substr(0, rest.find(' '));
        const size_t open = rest.find(" (");
        const size_t close = rest.find(')', open == std::string_view::npos ? 0 : open);
        const std::string_view details =
            open == std::string_view::npos || close == std::string_view::npos
                ? std::string_view()
                : rest.substr(open + 2, close - open - 2);
        const size_t arch_open = details.rfind('[');
        const size_t arch_close = details.rfind(']');
        std::string package(name);
        if (arch_open != std::string_view::npos && arch_close > arch_open) {
            const std::string_view arch = details.substr(arch_open + 1, arch_close - arch_open - 1);
            if (arch != "all") {
                package += ":" + std::string(arch);
            }
        }
        if (!name.empty() &&
            std::find(packages.begin(), packages.end(), package) == packages.end()) {
            packages.push_back(std::move(package));
        }
    }
    return packages;
}

} // namespace bb
