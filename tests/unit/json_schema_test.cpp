// util/json_schema: the draft 2020-12 keywords the shipped KCIDB schema uses, each shown to
// accept what it allows and name what it refuses; a keyword it cannot check is refused on load.
#include "util/json_schema.h"

#include <catch2/catch.hpp>
#include <stdexcept>
#include <string>

namespace {
using nlohmann::json;

std::vector<std::string> violations_of(const json& schema, const json& document) {
    return bb::JsonSchema(schema).violations(document);
}

bool valid(const json& schema, const json& document) {
    return violations_of(schema, document).empty();
}
} // namespace

TEST_CASE("json schema: types, integers written as floats, and type lists") {
    CHECK(valid({{"type", "integer"}}, 3));
    CHECK(valid({{"type", "integer"}}, 3.0));
    CHECK_FALSE(valid({{"type", "integer"}}, 3.5));
    CHECK(valid({{"type", "number"}}, 3.5));
    CHECK_FALSE(valid({{"type", "string"}}, 3));
    CHECK(valid({{"type", json::array({"string", "null"})}}, nullptr));
    CHECK_FALSE(valid({{"type", "object"}}, json::array()));
    CHECK(valid({{"type", "boolean"}}, true));
}

TEST_CASE("json schema: properties, required, additionalProperties, items and $ref") {
    const json schema = json::parse(R"({
        "$defs": {"id": {"type": "string", "pattern": "^[a-z0-9_]+:.*$"}},
        "type": "object",
        "properties": {"id": {"$ref": "#/$defs/id"},
                       "tags": {"type": "array", "items": {"type": "string"}}},
        "required": ["id"],
        "additionalProperties": false})");
    CHECK(valid(schema, {{"id", "bootbench:1"}, {"tags", json::array({"a", "b"})}}));
    const auto missing = violations_of(schema, {{"tags", json::array()}});
    REQUIRE(missing.size() == 1);
    CHECK(missing[0] == "/: the required property \"id\" is missing");
    const auto extra = violations_of(schema, {{"id", "bootbench:1"}, {"colour", 1}});
    REQUIRE(extra.size() == 1);
    CHECK(extra[0] == "/colour: a property the schema does not allow here");
    const auto item =
        violations_of(schema, {{"id", "bootbench:1"}, {"tags", json::array({"a", 2})}});
    REQUIRE(item.size() == 1);
    CHECK(item[0] == "/tags/1: 2 is not of type \"string\"");
}

TEST_CASE("json schema: a pattern is searched, and . does not match a newline") {
    const json id = {{"type", "string"}, {"pattern", "^[a-z0-9_]+:.*$"}};
    CHECK(valid(id, "bootbench:a b"));
    const auto newline = violations_of(id, "bootbench:a\nb");
    REQUIRE(newline.size() == 1);
    CHECK(newline[0] == R"(/: "bootbench:a\nb" does not match ^[a-z0-9_]+:.*$)");
    CHECK(valid({{"pattern", "b"}}, "abc")); // not anchored unless the pattern says so
    // RE2 is linear in the string: a megabyte is matched, not recursed into.
    CHECK(valid(id, "bootbench:" + std::string(1 << 20, 'x')));
    CHECK_FALSE(valid(id, std::string(1 << 20, 'x')));
}

TEST_CASE("json schema: enum, const, minimum, maximum and maxLength in code points") {
    CHECK(valid({{"enum", json::array({"PASS", "FAIL"})}}, "PASS"));
    CHECK_FALSE(valid({{"enum", json::array({"PASS", "FAIL"})}}, "pass"));
    CHECK(valid({{"const", 4}}, 4));
    CHECK_FALSE(valid({{"const", 4}}, 5));
    CHECK(valid({{"minimum", 0}, {"maximum", 1}}, 0));
    CHECK_FALSE(valid({{"minimum", 0}}, -0.5));
    CHECK_FALSE(valid({{"maximum", 1}}, 1.5));
    CHECK(valid({{"maxLength", 2}}, "\xc3\xa9\xc3\xa9")); // two characters, four bytes
    CHECK_FALSE(valid({{"maxLength", 2}}, "abc"));
}

TEST_CASE("json schema: date-time, uri and email formats") {
    const json date = {{"format", "date-time"}};
    CHECK(valid(date, "2026-12-07T04:58:25Z"));
    CHECK(valid(date, "2026-12-07T04:58:25.123+05:30"));
    CHECK(valid(date, "2024-02-29T00:00:00Z"));
    CHECK_FALSE(valid(date, "garbage"));
    CHECK_FALSE(valid(date, "2026-12-07 04:58:25Z"));
    CHECK_FALSE(valid(date, "2026-13-07T04:58:25Z"));
    CHECK_FALSE(valid(date, "2023-02-29T00:00:00Z"));
    CHECK_FALSE(valid(date, "2026-12-07T24:00:00Z"));
    CHECK_FALSE(valid(date, "2026-12-07T04:58:25"));
    const json uri = {{"format", "uri"}};
    CHECK(valid(uri, "https://example.org/a%20b?x=1#y"));
    CHECK_FALSE(valid(uri, "/home/someone/linux"));
    CHECK_FALSE(valid(uri, "https://example.org/a b"));
    CHECK(valid({{"format", "email"}}, "a@b.org"));
    CHECK_FALSE(valid({{"format", "email"}}, "a b.org"));
}

TEST_CASE("json schema: at most `limit` violations are collected") {
    const json schema = {{"type", "array"}, {"items", {{"type", "string"}}}};
    const json many = json::array({1, 2, 3, 4, 5});
    CHECK(bb::JsonSchema(schema).violations(many, 2).size() == 2);
    CHECK(bb::JsonSchema(schema).violations(many).size() == 5);
}

TEST_CASE("json schema: what it cannot check is refused when loaded, not skipped") {
    CHECK_THROWS_AS(bb::JsonSchema(json{{"oneOf", json::array()}}), std::logic_error);
    CHECK_THROWS_AS(bb::JsonSchema(json{{"format", "ipv4"}}), std::logic_error);
    CHECK_THROWS_AS(bb::JsonSchema(json{{"$ref", "#/$defs/missing"}}), std::logic_error);
    CHECK_THROWS_AS(bb::JsonSchema(json{{"pattern", "("}}), std::logic_error);
    CHECK_THROWS_AS(
        bb::JsonSchema(json{{"properties", {{"a", {{"patternProperties", json::object()}}}}}}),
        std::logic_error);
    CHECK_NOTHROW(bb::JsonSchema(json{{"title", "t"}, {"description", "d"}, {"type", "object"}}));
}
