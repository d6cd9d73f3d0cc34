#include "util/gzip.h"

#include "util/error.h"

#include <zlib.h>

#include <array>

namespace bb {

namespace {
constexpr int k_gzip_window_bits = 15 + 16; // 16: gzip wrapper instead of zlib's

Bytef* bytes_of(std::string_view data) {
    // zlib's API is not const-correct; it never writes through next_in.
    return reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
}
} // namespace

std::string gzip_compress(std::string_view data) {
    z_stream stream{};
    if (deflateInit2(&stream, Z_BEST_COMPRESSION, Z_DEFLATED, k_gzip_window_bits, 8,
                     Z_DEFAULT_STRATEGY) != Z_OK) {
        throw Error("zlib: deflateInit2 failed");
    }
    stream.next_in = bytes_of(data);
    stream.avail_in = static_cast<uInt>(data.size());
    std::string out;
    std::array<char, 1 << 16> buffer{};
    int status = Z_OK;
    do {
        stream.next_out = reinterpret_cast<Bytef*>(buffer.data());
        stream.avail_out = buffer.size();
        status = deflate(&stream, Z_FINISH);
        out.append(buffer.data(), buffer.size() - stream.avail_out);
    } while (status == Z_OK || status == Z_BUF_ERROR);
    deflateEnd(&stream);
    if (status != Z_STREAM_END) {
        throw Error("zlib: deflate failed");
    }
    return out;
}

std::string gzip_decompress(std::string_view data) {
    z_stream stream{};
    if (inflateInit2(&stream, k_gzip_window_bits) != Z_OK) {
        throw Error("zlib: inflateInit2 failed");
    }
    stream.next_in = bytes_of(data);
    stream.avail_in = static_cast<uInt>(data.size());
    std::string out;
    std::array<char, 1 << 16> buffer{};
    int status = Z_OK;
    do {
        stream.next_out = reinterpret_cast<Bytef*>(buffer.data());
        stream.avail_out = buffer.size();
        status = inflate(&stream, Z_NO_FLUSH);
        out.append(buffer.data(), buffer.size() - stream.avail_out);
    } while (status == Z_OK);
    inflateEnd(&stream);
    if (status != Z_STREAM_END) {
        throw Error("zlib: corrupt gzip data");
    }
    return out;
}

std::string gzip_decompress_head(std::string_view data, std::size_t limit) {
    z_stream stream{};
    if (inflateInit2(&stream, k_gzip_window_bits) != Z_OK) {
        throw Error("zlib: inflateInit2 failed");
    }
    std::string out(limit, '\0');
    stream.next_in = bytes_of(data);
    stream.avail_in = static_cast<uInt>(data.size());
    stream.next_out = reinterpret_cast<Bytef*>(out.data());
    stream.avail_out = static_cast<uInt>(out.size());
    // Z_BUF_ERROR and a truncated input are expected here: only the head is wanted.
    const int status = inflate(&stream, Z_SYNC_FLUSH);
    out.resize(status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR
                   ? limit - stream.avail_out
                   : 0);
    inflateEnd(&stream);
    return out;
}

} // namespace bb
