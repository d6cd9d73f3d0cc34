#pragma once
#include <cstddef>
#include <string>
#include <string_view>

namespace bb {

// gzip-format (RFC 1952) so a stored console log can be read back with `zcat`.
std::string gzip_compress(std::string_view data);
std::string gzip_decompress(std::string_view data);
// At most `limit` bytes from the start of the decompressed stream; `data` may be cut short
// (a file's first bytes). Empty when `data` is not gzip.
std::string gzip_decompress_head(std::string_view data, std::size_t limit);

} // namespace bb
