#include "util/json_schema.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <fmt/format.h>
#include <re2/re2.h>
#include <stdexcept>
#include <string_view>

namespace bb {

namespace {
using nlohmann::json;

// Keywords that describe and never constrain, and the ones checked below: any other keyword in
// a schema is refused when it is loaded.
constexpr std::array<std::string_view, 8> k_annotations{
    "title", "description", "$schema", "$id", "$comment", "$defs", "examples", "default"};
constexpr std::array<std::string_view, 13> k_validating{
    "type",     "properties", "additionalProperties",
    "required", "items",      "$ref",
    "enum",     "const",      "minimum",
    "maximum",  "maxLength",  "pattern",
    "format"};
constexpr std::array<std::string_view, 3> k_formats{"date-time", "uri", "email"};

template <std::size_t N>
bool among(const std::array<std::string_view, N>& names, std::string_view name) {
    for (const auto candidate : names) {
        if (candidate == name) {
            return true;
        }
    }
    return false;
}

bool has_type(const json& value, const std::string& type) {
    if (type == "integer") {
        return value.is_number_integer() ||
               (value.is_number_float() && std::isfinite(value.get<double>()) &&
                std::floor(value.get<double>()) == value.get<double>());
    }
    if (type == "number") {
        return value.is_number();
    }
    static const std::map<std::string, json::value_t> k_types{{"string", json::value_t::string},
                                                              {"object", json::value_t::object},
                                                              {"array", json::value_t::array},
                                                              {"boolean", json::value_t::boolean},
                                                              {"null", json::value_t::null}};
    const auto found = k_types.find(type);
    if (found == k_types.end()) {
        throw std::logic_error("JSON schema: unknown type " + type);
    }
    return value.type() == found->second;
}

bool matches_type(const json& value, const json& type) {
    if (type.is_string()) {
        return has_type(value, type.get<std::string>());
    }
    for (const auto& one : type) {
        if (has_type(value, one.get<std::string>())) {
            return true;
        }
    }
    return false;
}

// Unicode code points, as maxLength counts them: every byte that does not continue a UTF-8
// sequence starts one.
std::size_t code_points(const std::string& text) {
    std::size_t count = 0;
    for (const unsigned char byte : text) {
        count += (byte & 0xC0U) != 0x80U ? 1 : 0;
    }
    return count;
}

int number_at(const std::string& text, std::size_t at, std::size_t digits) {
    return std::stoi(text.substr(at, digits));
}

int days_in_month(int year, int month) {
    constexpr std::array<int, 12> k_days{31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    return month == 2 && leap ? 29 : k_days.at(static_cast<std::size_t>(month - 1));
}

// RFC 3339's date-time: 2026-12-07T04:58:25(.fraction)(Z|+hh:mm), each field in its range.
bool is_date_time(const std::string& text) {
    static const re2::RE2 k_shape(
        R"(\d{4}-\d\d-\d\d[Tt]\d\d:\d\d:\d\d(\.\d+)?([Zz]|[+-]\d\d:\d\d))");
    if (!re2::RE2::FullMatch(text, k_shape)) {
        return false;
    }
    const int year = number_at(text, 0, 4);
    const int month = number_at(text, 5, 2);
    if (month < 1 || month > 12) {
        return false;
    }
    const int day = number_at(text, 8, 2);
    const bool offset_ok =
        text.back() == 'Z' || text.back() == 'z' ||
        (number_at(text, text.size() - 5, 2) <= 23 && number_at(text, text.size() - 2, 2) <= 59);
    return day >= 1 && day <= days_in_month(year, month) && number_at(text, 11, 2) <= 23 &&
           number_at(text, 14, 2) <= 59 && number_at(text, 17, 2) <= 60 && offset_ok;
}

// RFC 3986's URI: a scheme, a colon, then only characters a URI may carry (percent-encoded
// bytes included); no space, control character or non-ASCII byte.
bool is_uri(const std::string& text) {
    static const re2::RE2 k_shape(
        R"([A-Za-z][A-Za-z0-9+.-]*:[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=%]*)");
    return re2::RE2::FullMatch(text, k_shape);
}

bool is_email(const std::string& text) {
    static const re2::RE2 k_shape(R"([^@\s]+@[^@\s]+)");
    return re2::RE2::FullMatch(text, k_shape);
}

bool has_format(const std::string& text, const std::string& format) {
    if (format == "date-time") {
        return is_date_time(text);
    }
    return format == "uri" ? is_uri(text) : is_email(text);
}

// A string value as a violation shows it: JSON-quoted (a newline shows as \n), at most 60 bytes.
std::string shown(const json& value) {
    std::string text = value.dump(-1, ' ', true, json::error_handler_t::replace);
    return text.size() > 60 ? text.substr(0, 57) + "..." : text;
}
} // namespace

// One walk of a document against the schema, collecting what breaks it.
class JsonSchema::Checker {
  public:
    Checker(const JsonSchema& schema, std::size_t limit) : m_owner(schema), m_limit(limit) {}

    void check(const json& value, const json& schema, const json::json_pointer& at) {
        if (full()) {
            return;
        }
        if (schema.contains("$ref")) {
            check(value, resolve(m_owner.m_schema, schema["$ref"].get<std::string>()), at);
        }
        if (schema.contains("type") && !matches_type(value, schema["type"])) {
            report(at, fmt::format("{} is not of type {}", shown(value), schema["type"].dump()));
            return; // the keywords below assume the type
        }
        check_value(value, schema, at);
        if (value.is_string()) {
            check_string(value.get<std::string>(), schema, at);
        } else if (value.is_object()) {
            check_object(value, schema, at);
        } else if (value.is_array() && schema.contains("items")) {
            for (std::size_t i = 0; i < value.size(); ++i) {
                check(value[i], schema["items"], at / i);
            }
        }
    }

    std::vector<std::string> take() { return std::move(m_found); }

    // "#/$defs/x": a JSON pointer into the root schema (the only form the shipped schemas use).
    static const json& resolve(const json& root, const std::string& ref) {
        if (ref.empty() || ref.front() != '#') {
            throw std::logic_error("JSON schema: $ref outside the schema: " + ref);
        }
        const json::json_pointer pointer(ref.substr(1));
        if (!root.contains(pointer)) {
            throw std::logic_error("JSON schema: $ref to nothing: " + ref);
        }
        return root.at(pointer);
    }

  private:
    bool full() const { return m_found.size() >= m_limit; }

    void report(const json::json_pointer& at, const std::string& what) {
        if (!full()) {
            m_found.push_back((at.empty() ? std::string("/") : at.to_string()) + ": " + what);
        }
    }

    void check_value(const json& value, const json& schema, const json::json_pointer& at) {
        if (schema.contains("const") && value != schema["const"]) {
            report(at, fmt::format("{} is not {}", shown(value), schema["const"].dump()));
        }
        if (schema.contains("enum") && std::find(schema["enum"].begin(), schema["enum"].end(),
                                                 value) == schema["enum"].end()) {
            report(at, fmt::format("{} is not one of {}", shown(value), schema["enum"].dump()));
        }
        if (value.is_number() && schema.contains("minimum") &&
            value.get<double>() < schema["minimum"].get<double>()) {
            report(at, fmt::format("{} is below the minimum {}", value.dump(),
                                   schema["minimum"].dump()));
        }
        if (value.is_number() && schema.contains("maximum") &&
            value.get<double>() > schema["maximum"].get<double>()) {
            report(at, fmt::format("{} is above the maximum {}", value.dump(),
                                   schema["maximum"].dump()));
        }
    }

    void check_string(const std::string& text, const json& schema, const json::json_pointer& at) {
        if (schema.contains("maxLength") &&
            code_points(text) > schema["maxLength"].get<std::size_t>()) {
            report(at, fmt::format("{} characters, more than maxLength {}", code_points(text),
                                   schema["maxLength"].dump()));
        }
        if (schema.contains("pattern") &&
            !re2::RE2::PartialMatch(text,
                                    *m_owner.m_patterns.at(schema["pattern"].get<std::string>()))) {
            report(at, fmt::format("{} does not match {}", shown(json(text)),
                                   schema["pattern"].get<std::string>()));
        }
        if (schema.contains("format") && !has_format(text, schema["format"].get<std::string>())) {
            report(at, fmt::format("{} is not a {}", shown(json(text)),
                                   schema["format"].get<std::string>()));
        }
    }

    void check_object(const json& object, const json& schema, const json::json_pointer& at) {
        for (const auto& name : schema.value("required", json::array())) {
            if (!object.contains(name.get<std::string>())) {
                report(at, fmt::format("the required property {} is missing", name.dump()));
            }
        }
        const json properties = schema.value("properties", json::object());
        for (const auto& [name, value] : object.items()) {
            if (properties.contains(name)) {
                check(value, properties[name], at / name);
            } else if (schema.contains("additionalProperties")) {
                check_additional(value, schema["additionalProperties"], at / name);
            }
        }
    }

    void check_additional(const json& value, const json& rule, const json::json_pointer& at) {
        if (rule.is_boolean()) {
            if (!rule.get<bool>()) {
                report(at, "a property the schema does not allow here");
            }
            return;
        }
        check(value, rule, at);
    }

    const JsonSchema& m_owner;
    std::size_t m_limit;
    std::vector<std::string> m_found;
};

JsonSchema::JsonSchema(nlohmann::json schema) : m_schema(std::move(schema)) {
    compile_patterns(m_schema);
}

JsonSchema::~JsonSchema() = default;

// Walks every subschema once: refuses what cannot be checked, compiles every pattern.
void JsonSchema::compile_patterns(const json& schema) {
    if (schema.is_boolean()) {
        return;
    }
    if (!schema.is_object()) {
        throw std::logic_error("JSON schema: a subschema that is not an object: " + shown(schema));
    }
    for (const auto& [keyword, value] : schema.items()) {
        if (!among(k_annotations, keyword) && !among(k_validating, keyword)) {
            throw std::logic_error("JSON schema: keyword " + keyword + " is not supported");
        }
    }
    if (schema.contains("pattern") && !m_patterns.contains(schema["pattern"].get<std::string>())) {
        auto compiled =
            std::make_unique<re2::RE2>(schema["pattern"].get<std::string>(), re2::RE2::Quiet);
        if (!compiled->ok()) {
            throw std::logic_error("JSON schema: pattern " + compiled->pattern() + ": " +
                                   compiled->error());
        }
        m_patterns.emplace(schema["pattern"].get<std::string>(), std::move(compiled));
    }
    if (schema.contains("format") && !among(k_formats, schema["format"].get<std::string>())) {
        throw std::logic_error("JSON schema: format " + schema["format"].dump() +
                               " is not supported");
    }
    if (schema.contains("$ref")) {
        Checker::resolve(m_schema, schema["$ref"].get<std::string>());
    }
    for (const char* map : {"properties", "$defs"}) {
        const json subschemas = schema.value(map, json::object()); // outlives the loop
        for (const auto& [name, subschema] : subschemas.items()) {
            compile_patterns(subschema);
        }
    }
    for (const char* single : {"items", "additionalProperties"}) {
        if (schema.contains(single)) {
            compile_patterns(schema[single]);
        }
    }
}

std::vector<std::string> JsonSchema::violations(const nlohmann::json& document,
                                                std::size_t limit) const {
    Checker checker(*this, limit);
    checker.check(document, m_schema, json::json_pointer());
    return checker.take();
}

} // namespace bb
