#include "test_support.h"
#include "util/error.h"
#include "util/hash.h"

#include <catch2/catch.hpp>
#include <string>

using bb::Sha256;

namespace {
constexpr const char* k_sha_abc =
    "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
constexpr const char* k_sha_empty =
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
} // namespace

TEST_CASE("sha256 of known vectors", "[hash]") {
    CHECK(bb::sha256_hex("abc") == k_sha_abc);
    CHECK(bb::sha256_hex("") == k_sha_empty);
    CHECK(Sha256().hex() == k_sha_empty);
    // FIPS 180-2 two-block vector.
    CHECK(bb::sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
          "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

TEST_CASE("sha256 is incremental", "[hash]") {
    Sha256 hash;
    hash.update("a").update("").update("bc");
    CHECK(hash.hex() == k_sha_abc);
}

TEST_CASE("sha256 hashes embedded NUL bytes", "[hash]") {
    // A string_view with a NUL must not be cut short as a C string would be.
    CHECK(bb::sha256_hex(std::string_view("ab\0c", 4)) != bb::sha256_hex("ab"));
    CHECK(bb::sha256_hex(std::string_view("ab\0c", 4)) != bb::sha256_hex("abc"));
}

TEST_CASE("tagged() separates tag from value and values from each other", "[hash]") {
    const std::string a_bc = Sha256().tagged("a", "bc").hex();
    const std::string ab_c = Sha256().tagged("ab", "c").hex();
    CHECK(a_bc != ab_c);
    CHECK(a_bc.size() == 64);

    // Moving bytes between consecutive values must change the key too.
    CHECK(Sha256().tagged("t", "ab").tagged("t", "c").hex() !=
          Sha256().tagged("t", "a").tagged("t", "bc").hex());
    // And a value that spells out the framing of two values is not the same as two values.
    const std::string framed = std::string("a") + '\0' + "1" + '\0' + "b";
    CHECK(Sha256().tagged("t", framed).hex() != Sha256().tagged("t", "a").tagged("1", "b").hex());

    // Layout: tag, NUL, decimal length, NUL, value. Cache keys on disk depend on it staying put.
    CHECK(Sha256().tagged("arch", "x86_64").hex() ==
          bb::sha256_hex(std::string("arch") + '\0' + "6" + '\0' + "x86_64"));
    CHECK(Sha256().tagged("a", "bc").hex() == Sha256().tagged("a", "bc").hex());
}

TEST_CASE("sha256_file matches hashing the bytes", "[hash]") {
    bb::test::TempDir dir;
    const auto small = dir / "abc";
    bb::test::write_bytes(small, "abc");
    CHECK(bb::sha256_file(small) == k_sha_abc);

    const auto empty = dir / "empty";
    bb::test::write_bytes(empty, "");
    CHECK(bb::sha256_file(empty) == k_sha_empty);

    // Larger than the 64 KiB read buffer and not a multiple of it.
    std::string big;
    for (int i = 0; big.size() < 200'001; ++i) {
        big += std::to_string(i);
        big += '\n';
    }
    const auto large = dir / "large";
    bb::test::write_bytes(large, big);
    CHECK(bb::sha256_file(large) == bb::sha256_hex(big));
    CHECK(Sha256().update("prefix").file(large).hex() == bb::sha256_hex("prefix" + big));
}

TEST_CASE("sha256_file of a missing file is an Error naming it", "[hash]") {
    bb::test::TempDir dir;
    const auto missing = dir / "nope";
    const std::string message =
        bb::test::thrown_message<bb::Error>([&] { bb::sha256_file(missing); });
    CHECK_THAT(message, Catch::Contains(missing.string()));
}
