#pragma once
// Helpers shared by the unit tests: a private temporary directory, exception-message capture
// and the host that store-backed tests record their runs on.
#include "util/host_facts.h"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>

namespace bb::test {

// A fresh directory under $TMPDIR, removed with everything in it when the test ends.
class TempDir {
  public:
    TempDir() {
        std::string pattern =
            (std::filesystem::temp_directory_path() / "bootbench-unit-XXXXXX").string();
        if (mkdtemp(pattern.data()) == nullptr) {
            FAIL("mkdtemp failed for " << pattern);
        }
        m_path = pattern;
    }
    ~TempDir() {
        std::error_code ignored;
        std::filesystem::remove_all(m_path, ignored);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

    const std::filesystem::path& path() const { return m_path; }
    std::filesystem::path operator/(std::string_view name) const { return m_path / name; }

  private:
    std::filesystem::path m_path;
};

inline void write_bytes(const std::filesystem::path& path, std::string_view bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    REQUIRE(out.good());
}

// Runs `action`, which must throw `E`, and returns the exception's message so a test can check
// that it tells the user what went wrong (Catch2 v2 has no "message contains" matcher).
template <class E, class F> std::string thrown_message(F&& action) {
    try {
        action();
    } catch (const E& e) {
        return e.what();
    }
    FAIL("expected an exception, none was thrown");
    return {};
}

// The host every store-backed test records its runs on.
inline HostFacts bench_host_facts() {
    HostFacts facts;
    facts.hostname = "bench-01";
    facts.kernel_release = "6.1.0";
    facts.cpu_model = "test cpu";
    facts.cpus = 2;
    facts.fingerprint = "fp";
    return facts;
}

// One copy each of what several test files read or need (the unit tests compile in unity
// batches, where two files' private copies of a helper would collide).
inline const std::filesystem::path k_busybox = "/bin/busybox";

inline std::string read_text(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// scripts/setup.sh installs busybox-static: without it these tests fail, they never skip.
inline void require_busybox() {
    INFO(k_busybox << " is absent (scripts/setup.sh installs busybox-static)");
    REQUIRE(std::filesystem::exists(k_busybox));
}

} // namespace bb::test
