#pragma once
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

namespace bb {

// Incremental SHA-256. `tagged()` hashes a tag and a length before the bytes so that two
// different (tag, value) sequences can never produce the same stream (ccache's key discipline).
class Sha256 {
  public:
    Sha256();
    ~Sha256();
    Sha256(const Sha256&) = delete;
    Sha256& operator=(const Sha256&) = delete;

    Sha256& update(std::string_view bytes);
    Sha256& tagged(std::string_view tag, std::string_view value);
    Sha256& file(const std::filesystem::path& path);
    std::string hex();

  private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

std::string sha256_hex(std::string_view bytes);
std::string sha256_file(const std::filesystem::path& path);

} // namespace bb
