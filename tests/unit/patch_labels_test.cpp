#include "store/patch_labels.h"
#include "test_support.h"
#include "util/error.h"

#include <catch2/catch.hpp>

using Labels = std::vector<std::string>;

TEST_CASE("patch labels: written and read back as one JSON list of strings", "[patch_labels]") {
    const Labels labels{"0001-a.patch (\"[PATCH] a: say \\\"why\\\"\")", "0002-b.patch"};
    const std::string stored = bb::patch_labels_json(labels);
    CHECK(stored.front() == '[');
    CHECK(bb::read_patch_labels(stored) == labels);
    CHECK(bb::require_patch_labels(stored, "0123456789abcdef") == labels);
    CHECK(bb::patch_labels_json({}) == "[]");
    CHECK(bb::read_patch_labels("[]") == Labels{});
}

TEST_CASE("patch labels: a damaged list is nothing to a listing and an error to a command",
          "[patch_labels]") {
    for (const char* damaged : {"", "not json", "{\"a\":1}", "[1]", "[\"a\", null]", "\"a\""}) {
        INFO(damaged);
        CHECK_FALSE(bb::read_patch_labels(damaged).has_value());
        CHECK_THROWS_AS(bb::require_patch_labels(damaged, "0123456789abcdef"), bb::Error);
    }
    CHECK(bb::test::thrown_message<bb::Error>([] {
              bb::require_patch_labels("[\"a\", 2]", "0123456789abcdef");
          }) == "build 0123456789ab: its patch list holds 2, not a name");
}
