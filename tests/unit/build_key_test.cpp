#include "kernel/build_key.h"
#include "test_support.h"
#include "util/hash.h"

#include <catch2/catch.hpp>
#include <sstream>
#include <string>
#include <vector>

using bb::KeyBuilder;

namespace {
std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        lines.push_back(line);
    }
    return lines;
}

bool is_lower_hex(const std::string& text) {
    return text.find_first_not_of("0123456789abcdef") == std::string::npos;
}
} // namespace

TEST_CASE("KeyBuilder: the same inputs give the same key", "[build_key]") {
    const std::string key = KeyBuilder("v1").add("source", "linux-6.6").add("arch", "x86").hex();
    CHECK(key.size() == 64);
    CHECK(is_lower_hex(key));
    CHECK(KeyBuilder("v1").add("source", "linux-6.6").add("arch", "x86").hex() == key);
    // hex() does not consume or change the builder.
    KeyBuilder builder("v1");
    builder.add("source", "linux-6.6").add("arch", "x86");
    CHECK(builder.hex() == key);
    CHECK(builder.hex() == key);
}

TEST_CASE("KeyBuilder hashes the format version first, then each tagged input", "[build_key]") {
    // The exact byte stream is the cache's on-disk contract: tag NUL length NUL value.
    const std::string stream =
        std::string("key-format") + '\0' + "2" + '\0' + "v1" + "patch" + '\0' + "3" + '\0' + "abc";
    REQUIRE(stream.size() == 26);
    CHECK(KeyBuilder("v1").add("patch", "abc").hex() == bb::sha256_hex(stream));
    CHECK(KeyBuilder("v1").hex() == bb::Sha256().tagged("key-format", "v1").hex());
}

TEST_CASE("KeyBuilder: a different format version gives a different key", "[build_key]") {
    CHECK(KeyBuilder("v1").hex() != KeyBuilder("v2").hex());
    CHECK(KeyBuilder("tree-1").add("source", "x").hex() !=
          KeyBuilder("tree-2").add("source", "x").hex());
}

TEST_CASE("KeyBuilder: inputs cannot run into each other", "[build_key]") {
    SECTION("tag and value boundary") {
        CHECK(KeyBuilder("v1").add("a", "bc").hex() != KeyBuilder("v1").add("ab", "c").hex());
    }
    SECTION("one value split differently across two tags") {
        CHECK(KeyBuilder("v1").add("x", "a").add("y", "bc").hex() !=
              KeyBuilder("v1").add("x", "ab").add("y", "c").hex());
    }
    SECTION("an empty input still counts") {
        CHECK(KeyBuilder("v1").add("patch", "").hex() != KeyBuilder("v1").hex());
        CHECK(KeyBuilder("v1").add("patch", "p").hex() !=
              KeyBuilder("v1").add("patch", "p").add("patch", "").hex());
    }
    SECTION("order matters") {
        CHECK(KeyBuilder("v1").add("patch", "1").add("patch", "2").hex() !=
              KeyBuilder("v1").add("patch", "2").add("patch", "1").hex());
    }
    SECTION("the tag matters") {
        CHECK(KeyBuilder("v1").add("hz", "").hex() != KeyBuilder("v1").add("preempt", "").hex());
    }
    SECTION("the version cannot be confused with an input") {
        CHECK(KeyBuilder("v1").hex() != KeyBuilder("").add("key-format", "v1").hex());
    }
}

TEST_CASE("KeyBuilder::explain lists every input and ends with the key", "[build_key]") {
    KeyBuilder builder("cfg-3");
    const std::string config = "CONFIG_A=y\nCONFIG_B=n\n";
    builder.add("arch", "x86").add("config", config).add("empty", "");
    const std::string text = builder.explain();
    const auto lines = lines_of(text);
    REQUIRE(lines.size() == 5);

    CHECK_THAT(lines[0], Catch::StartsWith("  key-format "));
    CHECK_THAT(lines[0], Catch::Contains(" 5 bytes"));
    CHECK_THAT(lines[0], Catch::Contains("sha256:" + bb::sha256_hex("cfg-3").substr(0, 16)));
    CHECK_THAT(lines[0], Catch::EndsWith("  cfg-3"));

    CHECK_THAT(lines[1], Catch::StartsWith("  arch "));
    CHECK_THAT(lines[1], Catch::Contains(" 3 bytes"));
    CHECK_THAT(lines[1], Catch::EndsWith("  x86"));

    // A multi-line value is previewed by its first line only.
    CHECK_THAT(lines[2], Catch::StartsWith("  config "));
    CHECK_THAT(lines[2], Catch::Contains(" 22 bytes"));
    CHECK_THAT(lines[2], Catch::Contains("sha256:" + bb::sha256_hex(config).substr(0, 16)));
    CHECK_THAT(lines[2], Catch::EndsWith("  CONFIG_A=y"));

    CHECK_THAT(lines[3], Catch::StartsWith("  empty "));
    CHECK_THAT(lines[3], Catch::Contains(" 0 bytes"));

    CHECK(lines[4] == "  => key " + builder.hex());
    CHECK_THAT(text, Catch::EndsWith("  => key " + builder.hex() + "\n"));
}

TEST_CASE("KeyBuilder::explain shortens a long preview", "[build_key]") {
    const std::string long_value(100, 'x');
    const auto lines = lines_of(KeyBuilder("v1").add("blob", long_value).explain());
    REQUIRE(lines.size() == 3);
    CHECK_THAT(lines[1], Catch::EndsWith("  " + std::string(57, 'x') + "..."));
    CHECK_THAT(lines[1], !Catch::Contains(std::string(58, 'x')));
    CHECK_THAT(lines[1], Catch::Contains(" 100 bytes"));
}
