#include "kernel/source_spec.h"

#include "util/error.h"

#include <algorithm>
#include <cctype>
#include <string_view>

namespace bb {

namespace fs = std::filesystem;

std::string default_source_text() {
    return "debian:linux-source-6.12";
}

SourceSpec parse_source_spec(const std::string& text) {
    SourceSpec spec;
    if (text.rfind("debian:", 0) == 0) {
        spec.kind = SourceSpec::Kind::DebianPackage;
        spec.package = text.substr(7);
        if (const auto equals = spec.package.find('='); equals != std::string::npos) {
            spec.version = spec.package.substr(equals + 1);
            spec.package.resize(equals);
        }
        // Debian's own rules: a package name of [a-z0-9.+-] (here linux-source-X.Y, so never
        // "linux-source-/../../x"), a version that starts with a digit and holds only
        // [A-Za-z0-9.+~:-] (never "1;id", "1 2" or a newline).
        const std::string_view release =
            std::string_view(spec.package)
                .substr(std::min(spec.package.size(), std::string_view("linux-source-").size()));
        const bool package_ok =
            spec.package.rfind("linux-source-", 0) == 0 && !release.empty() &&
            std::isdigit(static_cast<unsigned char>(release.front())) != 0 &&
            release.find_first_not_of("0123456789abcdefghijklmnopqrstuvwxyz.+-") ==
                std::string_view::npos;
        const bool version_ok =
            spec.version.find_first_not_of("0123456789abcdefghijklmnopqrstuvwxyz"
                                           "ABCDEFGHIJKLMNOPQRSTUVWXYZ.+-~:") ==
                std::string::npos &&
            (spec.version.empty() || std::isdigit(static_cast<unsigned char>(spec.version[0])));
        if (!package_ok || !version_ok ||
            (text.find('=') != std::string::npos && spec.version.empty())) {
            throw Error("--source " + text +
                        ": expected debian:linux-source-X.Y or debian:linux-source-X.Y=VERSION");
        }
    } else if (text.rfind("git:", 0) == 0) {
        spec.kind = SourceSpec::Kind::GitRef;
        const auto at = text.rfind('@');
        if (at == std::string::npos || at < 4) {
            throw Error("--source " + text + ": expected git:/path/to/repo@ref");
        }
        spec.path = text.substr(4, at - 4);
        spec.ref = text.substr(at + 1);
        // git would read a ref starting with '-' as one of its options; a control character is
        // never part of a ref.
        if (spec.ref.empty() || spec.ref.front() == '-' ||
            std::any_of(spec.ref.begin(), spec.ref.end(),
                        [](char c) { return static_cast<unsigned char>(c) <= 0x20; })) {
            throw Error("--source " + text +
                        ": expected git:/path/to/repo@REF with a branch, tag "
                        "or commit as REF");
        }
    } else {
        spec.kind = SourceSpec::Kind::LocalTree;
        spec.path = text;
        if (!fs::is_directory(spec.path)) {
            throw Error("--source " + text +
                        ": not a directory (or use debian:linux-source-X.Y, git:REPO@REF)");
        }
    }
    return spec;
}

} // namespace bb
