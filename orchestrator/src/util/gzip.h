#pragma once
#include <string>
#include <string_view>

namespace bb {

// gzip-format (RFC 1952) so a stored console log can be read back with `zcat`.
std::string gzip_compress(std::string_view data);
std::string gzip_decompress(std::string_view data);

} // namespace bb
