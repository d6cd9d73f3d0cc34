#pragma once
// A JSON Schema (draft 2020-12) validator for the keywords bootbench's shipped schemas use (the
// KCIDB I/O schema: orchestrator/data/kcidb/). A schema that uses any other validating keyword
// or format is refused when it is loaded, so a newer schema cannot be checked only in part.
// Patterns are matched with RE2: linear in the string, never recursing, whatever its length.
#include <cstddef>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace re2 {
class RE2;
}

namespace bb {

class JsonSchema {
  public:
    // Throws std::logic_error for a keyword, format, `$ref` or pattern this validator cannot
    // check: a shipped schema is bootbench's own data, so that is a bug, not a user's mistake.
    explicit JsonSchema(nlohmann::json schema);
    ~JsonSchema();
    JsonSchema(const JsonSchema&) = delete;
    JsonSchema& operator=(const JsonSchema&) = delete;

    // At most `limit` violations, each "JSON-pointer: what is wrong" ("/tests/3/id: "a\nb" does
    // not match ^[a-z0-9_]+:.*$"); empty when `document` is valid.
    std::vector<std::string> violations(const nlohmann::json& document,
                                        std::size_t limit = 10) const;

  private:
    class Checker;
    void compile_patterns(const nlohmann::json& schema);

    nlohmann::json m_schema;
    std::map<std::string, std::unique_ptr<re2::RE2>> m_patterns;
};

} // namespace bb
