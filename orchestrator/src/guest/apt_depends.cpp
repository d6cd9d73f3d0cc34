#include "guest/apt_depends.h"

#include <algorithm>

namespace bb {

namespace {
std::string_view trimmed(std::string_view text) {
    const size_t start = text.find_first_not_of(" \t|");
    if (start == std::string_view::npos) {
        return {};
    }
    const size_t end = text.find_last_not_of(" \t\r");
    return text.substr(start, end - start + 1);
}
} // namespace

std::vector<std::string> parse_apt_depends(std::string_view output) {
    // "  Depends: libc6:arm64", "  |Depends: a", "  Depends: <virtual:arm64>" followed by its
    // providers on lines indented by four spaces, "  Recommends: ..." (ignored).
    std::vector<std::string> packages;
    auto add = [&packages](std::string_view name) {
        if (!name.empty() && std::find(packages.begin(), packages.end(), name) == packages.end()) {
            packages.emplace_back(name);
        }
    };
    bool in_virtual_dependency = false;
    while (!output.empty()) {
        const size_t newline = output.find('\n');
        const std::string_view line = output.substr(0, newline);
        output.remove_prefix(newline == std::string_view::npos ? output.size() : newline + 1);
        const bool provider_line = line.rfind("    ", 0) == 0;
        if (provider_line) {
            if (in_virtual_dependency) {
                add(trimmed(line));
            }
            continue;
        }
        in_virtual_dependency = false;
        const std::string_view entry = trimmed(line);
        const size_t colon = entry.find(": ");
        if (colon == std::string_view::npos) {
            continue;
        }
        const std::string_view kind = entry.substr(0, colon);
        if (kind != "Depends" && kind != "PreDepends") {
            continue;
        }
        const std::string_view target = trimmed(entry.substr(colon + 2));
        if (!target.empty() && target.front() == '<') {
            in_virtual_dependency = true;
        } else {
            add(target);
        }
    }
    return packages;
}

} // namespace bb
