#include "kcidb/kcidb_schema.h"

#include "util/error.h"
#include "util/json_schema.h"

#include <fmt/format.h>
#include <set>
#include <string>
#include <vector>

namespace bb {

namespace {
using nlohmann::json;

const JsonSchema& kcidb_schema() {
    static const JsonSchema schema(json::parse(kcidb_schema_text()));
    return schema;
}

// KCIDB merges objects by id: two objects of one kind with one id would silently become one.
void add_duplicate_ids(const json& document, std::vector<std::string>& violations) {
    for (const char* kind : {"checkouts", "builds", "tests"}) {
        std::set<std::string> seen;
        const json objects = document.value(kind, json::array());
        for (std::size_t i = 0; i < objects.size(); ++i) {
            const json& id = objects[i].value("id", json());
            if (id.is_string() && !seen.insert(id.get<std::string>()).second) {
                violations.push_back(
                    fmt::format("/{}/{}/id: {} is the id of an earlier one", kind, i,
                                id.dump(-1, ' ', true, json::error_handler_t::replace)));
            }
        }
    }
}
} // namespace

void require_kcidb_schema(const json& document) {
    constexpr std::size_t k_shown = 5;
    std::vector<std::string> violations = kcidb_schema().violations(document, k_shown);
    add_duplicate_ids(document, violations);
    if (violations.empty()) {
        return;
    }
    if (violations.size() > k_shown) {
        violations.resize(k_shown);
    }
    throw Error(fmt::format(
        "the KCIDB document breaks the I/O schema v4.5, so nothing was written:\n  {}\n"
        "a stored row holds what KCIDB cannot carry; `bootbench runs` and `bootbench builds` "
        "show the rows, and a report of this message helps",
        fmt::join(violations, "\n  ")));
}

} // namespace bb
