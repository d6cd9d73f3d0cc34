#include "guest/soname_providers.h"

#include <algorithm>
#include <cctype>

namespace bb {

namespace {
// Lower-case letters and digits only: "libglib-2.0" and "libglib2.0" compare equal.
std::string folded(std::string_view text) {
    std::string out;
    for (const char c : text) {
        if (std::isalnum(static_cast<unsigned char>(c))) {
            out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
        }
    }
    return out;
}

int score(std::string_view soname, std::string_view package) {
    package = package.substr(0, package.find(':'));
    const size_t so = soname.find(".so");
    const std::string stem = folded(soname.substr(0, so));
    const std::string version = so == std::string_view::npos ? "" : folded(soname.substr(so + 3));
    const std::string name = folded(package);
    if (name == stem + version) {
        return 3; // libfdt.so.1 -> libfdt1
    }
    if (name.rfind(stem + version, 0) == 0) {
        return 2; // libjpeg.so.62 -> libjpeg62-turbo
    }
    const std::string bare = stem.rfind("lib", 0) == 0 ? stem.substr(3) : stem;
    if (!bare.empty() && name.rfind(bare, 0) == 0) {
        return 1; // libz.so.1 -> zlib1g
    }
    return 0;
}
} // namespace

bool named_like_provider(std::string_view soname, std::string_view package) {
    return score(soname, package) > 0;
}

std::vector<std::string> rank_soname_providers(std::string_view soname,
                                               std::vector<std::string> candidates) {
    std::stable_sort(candidates.begin(), candidates.end(),
                     [soname](const std::string& a, const std::string& b) {
                         return score(soname, a) > score(soname, b);
                     });
    return candidates;
}

} // namespace bb
