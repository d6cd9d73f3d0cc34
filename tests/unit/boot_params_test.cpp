#include "store/boot_params.h"
#include "test_support.h"
#include "util/error.h"

#include <catch2/catch.hpp>

TEST_CASE("boot params: an object is read, a damaged row by the reader's rule", "[boot_params]") {
    const auto params = bb::read_boot_params(R"({"variant":"stock","hz":250})");
    REQUIRE(params.has_value());
    CHECK((*params)["hz"] == 250);
    CHECK(bb::require_boot_params("{}", 7) == nlohmann::json::object());
    CHECK(bb::boot_params_as_stored(R"({"hz":100})") == nlohmann::json{{"hz", 100}});
    for (const char* damaged : {"", "garbage", "[1,2]", "\"hz\"", "null"}) {
        INFO(damaged);
        CHECK_FALSE(bb::read_boot_params(damaged).has_value());
        CHECK_THROWS_AS(bb::require_boot_params(damaged, 7), bb::Error);
        // Shown as stored: a JSON string, never invalid JSON.
        CHECK(bb::boot_params_as_stored(damaged) == nlohmann::json(std::string(damaged)));
    }
    CHECK(bb::test::thrown_message<bb::Error>([] { bb::require_boot_params("[1]", 42); }) ==
          "boot 42: its stored params_json is not a JSON object ([1]); its cell cannot be known");
}
