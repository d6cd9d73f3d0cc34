#pragma once
// `bootbench query "SQL"`'s execution: one reading statement against the results database.
// Only reading is allowed: an authorizer refuses every other action (store/query_sandbox.h),
// the statement must be read-only (sqlite3_stmt_readonly) and the connection runs with PRAGMA
// query_only. Time and memory are capped. report/adhoc_query.h renders the rows.
#include "store/query_sandbox.h"
#include "store/sql_value.h"

#include <SQLiteCpp/SQLiteCpp.h>
#include <string>
#include <string_view>
#include <vector>

namespace bb {

// A value as SQLite returned it; blobs are shown by size, never dumped.
using QueryCell = SqlValue;

struct QueryResult {
    std::vector<std::string> columns;
    std::vector<std::vector<QueryCell>> rows;
};

// Runs exactly one read-only statement. Throws Error for SQL that does not parse (with
// SQLite's message), for more than one statement, for anything but reading (INSERT, UPDATE,
// DELETE, CREATE, DROP, ATTACH, BEGIN, PRAGMA other than schema introspection, functions that
// reach files or extensions), saying so, and when the statement runs past `limits`.
QueryResult run_read_only_query(SQLite::Database& db, std::string_view sql,
                                const QueryLimits& limits = {});

// The views a query is meant to read (v_samples, v_boots, …), as the database itself lists them.
std::vector<std::string> view_names(SQLite::Database& db);

} // namespace bb
