#include "util/hash.h"

#include "util/error.h"

#include <openssl/evp.h>

#include <array>
#include <fstream>

namespace bb {

struct Sha256::Impl {
    EVP_MD_CTX* ctx = EVP_MD_CTX_new();
    ~Impl() { EVP_MD_CTX_free(ctx); }
};

Sha256::Sha256() : m_impl(std::make_unique<Impl>()) {
    EVP_DigestInit_ex(m_impl->ctx, EVP_sha256(), nullptr);
}

Sha256::~Sha256() = default;

Sha256& Sha256::update(std::string_view bytes) {
    EVP_DigestUpdate(m_impl->ctx, bytes.data(), bytes.size());
    return *this;
}

Sha256& Sha256::tagged(std::string_view tag, std::string_view value) {
    update(tag);
    update(std::string_view("\0", 1));
    update(std::to_string(value.size()));
    update(std::string_view("\0", 1));
    return update(value);
}

Sha256& Sha256::file(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        throw Error("cannot read " + path.string() + " to hash it");
    }
    std::array<char, 1 << 16> buffer{};
    while (in.read(buffer.data(), buffer.size()) || in.gcount() > 0) {
        update(std::string_view(buffer.data(), static_cast<size_t>(in.gcount())));
    }
    return *this;
}

std::string Sha256::hex() {
    std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
    unsigned int length = 0;
    EVP_DigestFinal_ex(m_impl->ctx, digest.data(), &length);
    static constexpr char k_digits[] = "0123456789abcdef";
    std::string out;
    for (unsigned int i = 0; i < length; ++i) {
        out += k_digits[digest[i] >> 4];
        out += k_digits[digest[i] & 0xf];
    }
    return out;
}

std::string sha256_hex(std::string_view bytes) { return Sha256().update(bytes).hex(); }

std::string sha256_file(const std::filesystem::path& path) { return Sha256().file(path).hex(); }

} // namespace bb
