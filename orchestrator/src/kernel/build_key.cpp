#include "kernel/build_key.h"

#include "util/hash.h"

#include <algorithm>
#include <fmt/format.h>
#include <sstream>

namespace bb {

KeyBuilder::KeyBuilder(std::string format_version) { add("key-format", std::move(format_version)); }

KeyBuilder& KeyBuilder::add(const std::string& tag, const std::string& value) {
    m_inputs.emplace_back(tag, value);
    return *this;
}

std::string KeyBuilder::hex() const {
    Sha256 hash;
    for (const auto& [tag, value] : m_inputs) {
        hash.tagged(tag, value);
    }
    return hash.hex();
}

std::string KeyBuilder::explain() const {
    std::string out;
    for (const auto& [tag, value] : m_inputs) {
        std::string preview = value.substr(0, value.find('\n'));
        if (preview.size() > 60) {
            preview = preview.substr(0, 57) + "...";
        }
        out += fmt::format("  {:<16} {:>9} bytes  sha256:{}  {}\n", tag, value.size(),
                           sha256_hex(value).substr(0, 16), preview);
    }
    out += fmt::format("  => key {}\n", hex());
    return out;
}

std::vector<std::string> explained_patch_hashes(const std::string& explain) {
    std::vector<std::string> hashes;
    std::istringstream lines(
        explain.substr(std::min(explain.find("build key inputs:"), explain.size())));
    for (std::string line; std::getline(lines, line);) {
        const auto at = line.find("sha256:");
        if (line.rfind("  patch ", 0) == 0 && at != std::string::npos) {
            hashes.push_back(line.substr(at + 7, 16));
        }
    }
    return hashes;
}

} // namespace bb
