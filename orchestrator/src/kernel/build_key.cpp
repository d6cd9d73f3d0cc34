#include "kernel/build_key.h"

#include "util/hash.h"

#include <fmt/format.h>

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

} // namespace bb
