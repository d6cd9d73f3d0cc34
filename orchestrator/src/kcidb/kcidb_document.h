#pragma once
// `bootbench export --format kcidb`: the chosen runs as one KernelCI KCIDB report (I/O schema
// v4.5; orchestrator/data/kcidb/ holds the schema, docs/kcidb.md the mapping).
#include "store/kcidb_rows.h"

#include <nlohmann/json.hpp>

namespace bb {

inline constexpr int k_kcidb_major = 4;
inline constexpr int k_kcidb_minor = 5;

// {"version": {"major": 4, "minor": 5}, "checkouts": [...], "builds": [...], "tests": [...]}:
// one checkout per kernel source and patch set, one build per kernel, one test per boot.
// Checkouts and builds are ordered by id, tests by run and boot, so the same data always gives
// the same document. Every number in it is finite and the whole validates against the schema
// (Error otherwise, naming where: kcidb/kcidb_schema.h).
nlohmann::json kcidb_document(const KcidbRows& rows);

} // namespace bb
