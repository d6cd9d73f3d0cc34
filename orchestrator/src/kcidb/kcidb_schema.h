#pragma once
// Every KCIDB document bootbench writes is checked against the published I/O schema v4.5
// (orchestrator/data/kcidb/, built into the binary) before a byte leaves: a row that would give
// an id with a newline, a date that is not one or a duplicate id is refused here, not by
// KernelCI after submission.
#include <nlohmann/json.hpp>
#include <string_view>

namespace bb {

// The schema's text, as shipped (generated from orchestrator/data/kcidb/v04_05.schema.json).
std::string_view kcidb_schema_text();

// Throws Error listing the first violations (each a JSON pointer and what is wrong) when
// `document` breaks the schema or gives two checkouts, builds or tests one id.
void require_kcidb_schema(const nlohmann::json& document);

} // namespace bb
