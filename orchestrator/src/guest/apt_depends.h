#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace bb {

// The packages a package depends on (Depends and PreDepends, every alternative; a virtual
// package is replaced by the packages that provide it), from the output of
// `apt-cache depends PKG`, in the order apt printed them, each once.
std::vector<std::string> parse_apt_depends(std::string_view output);

} // namespace bb
