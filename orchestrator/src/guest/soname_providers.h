#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace bb {

// `candidates` (package names, optionally with ":arch") reordered so that the ones most likely
// to hold `soname` come first, by Debian's library package naming: libglib-2.0.so.0 is in
// libglib2.0-0, libpixman-1.so.0 in libpixman-1-0, libjpeg.so.62 in libjpeg62-turbo. Only an
// order to try them in: the caller still checks the package really holds the file (zlib1g
// holds libz.so.1, and no rule finds that one first).
std::vector<std::string> rank_soname_providers(std::string_view soname,
                                               std::vector<std::string> candidates);

// Whether a naming rule links `package` to `soname` at all (libz.so.1 and zlib1g do; the
// loader ld-linux-aarch64.so.1 and libc6 do not).
bool named_like_provider(std::string_view soname, std::string_view package);

} // namespace bb
