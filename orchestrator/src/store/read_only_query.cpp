#include "store/read_only_query.h"

#include "util/error.h"

#include <fmt/format.h>
#include <memory>
#include <sqlite3.h>

namespace bb {

namespace {

struct FinalizeStatement {
    void operator()(sqlite3_stmt* statement) const { sqlite3_finalize(statement); }
};
using StatementHandle = std::unique_ptr<sqlite3_stmt, FinalizeStatement>;

// Whitespace and semicolons only; a tail holding just a comment is told apart by preparing it.
bool blank(std::string_view text) {
    return text.find_first_not_of(" \t\r\n;") == std::string_view::npos;
}

std::string first_words(std::string_view sql) {
    const size_t start = sql.find_first_not_of(" \t\r\n");
    if (start == std::string_view::npos) {
        return {};
    }
    std::string words(sql.substr(start, 40));
    for (char& c : words) {
        if (c == '\n' || c == '\r' || c == '\t') {
            c = ' ';
        }
    }
    return words + (sql.size() - start > 40 ? "…" : "");
}

QueryCell cell_of(sqlite3_stmt* statement, int column) {
    QueryCell cell;
    switch (sqlite3_column_type(statement, column)) {
    case SQLITE_INTEGER:
        cell.kind = QueryCell::Kind::Integer;
        cell.integer = sqlite3_column_int64(statement, column);
        break;
    case SQLITE_FLOAT:
        cell.kind = QueryCell::Kind::Real;
        cell.real = sqlite3_column_double(statement, column);
        break;
    case SQLITE_TEXT: {
        cell.kind = QueryCell::Kind::Text;
        const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(statement, column));
        cell.text.assign(text, static_cast<size_t>(sqlite3_column_bytes(statement, column)));
        break;
    }
    case SQLITE_BLOB:
        cell.kind = QueryCell::Kind::Blob;
        cell.bytes = sqlite3_column_bytes(statement, column);
        break;
    default:
        break;
    }
    return cell;
}

} // namespace

namespace {

// Prepares the one statement of `sql` under the sandbox; a tail that prepares to anything, or
// that the authorizer refuses, is a second statement.
StatementHandle prepare_one(sqlite3* handle, std::string_view sql, const QuerySandbox& sandbox) {
    sqlite3_stmt* raw = nullptr;
    const char* tail = nullptr;
    const int prepared =
        sqlite3_prepare_v2(handle, sql.data(), static_cast<int>(sql.size()), &raw, &tail);
    StatementHandle statement(raw);
    if (prepared != SQLITE_OK) {
        sandbox.explain_failure(prepared);
        throw Error(fmt::format("query: {} (in: {})", sqlite3_errmsg(handle), first_words(sql)));
    }
    if (!statement) {
        throw Error("query: the SQL holds only comments; give one SELECT statement");
    }
    const std::string_view rest = sql.substr(static_cast<size_t>(tail - sql.data()));
    if (!blank(rest)) {
        sqlite3_stmt* next = nullptr;
        const char* ignored = nullptr;
        const int second =
            sqlite3_prepare_v2(handle, rest.data(), static_cast<int>(rest.size()), &next, &ignored);
        const bool another = next != nullptr || second != SQLITE_OK;
        sqlite3_finalize(next);
        if (another) {
            throw Error(fmt::format("query: one statement at a time; found a second one after "
                                    "the first: {}",
                                    first_words(rest)));
        }
    }
    // The authorizer already refused every writing action; this is the second lock on the door.
    if (!sqlite3_stmt_readonly(statement.get())) {
        throw Error(fmt::format("query: refused: '{}' would change the database; bootbench query "
                                "only reads (SELECT, WITH … SELECT, EXPLAIN); the database is "
                                "opened read-only",
                                first_words(sql)));
    }
    return statement;
}

// A cell's share of the memory the result holds until it is printed.
size_t cell_bytes(const QueryCell& cell) {
    return sizeof(QueryCell) + cell.text.size();
}

QueryResult read_rows(sqlite3* handle, sqlite3_stmt* statement, QuerySandbox& sandbox) {
    QueryResult result;
    const int columns = sqlite3_column_count(statement);
    for (int c = 0; c < columns; ++c) {
        const char* name = sqlite3_column_name(statement, c);
        result.columns.emplace_back(name ? name : "");
    }
    for (;;) {
        const int step = sqlite3_step(statement);
        if (step == SQLITE_DONE) {
            break;
        }
        if (step != SQLITE_ROW) {
            sandbox.explain_failure(step);
            throw Error(fmt::format("query: {}", sqlite3_errmsg(handle)));
        }
        std::vector<QueryCell> row;
        row.reserve(static_cast<size_t>(columns));
        for (int c = 0; c < columns; ++c) {
            row.push_back(cell_of(statement, c));
            sandbox.add_result_bytes(cell_bytes(row.back()));
        }
        result.rows.push_back(std::move(row));
    }
    return result;
}

} // namespace

QueryResult run_read_only_query(SQLite::Database& db, std::string_view sql,
                                const QueryLimits& limits) {
    sqlite3* handle = db.getHandle();
    // Defence in depth: even a statement SQLite misjudges as read-only cannot write.
    db.exec("PRAGMA query_only = ON");
    if (blank(sql)) {
        throw Error("query: no SQL given; e.g. bootbench query \"select * from v_samples "
                    "limit 5\"");
    }
    QuerySandbox sandbox(handle, limits);
    const StatementHandle statement = prepare_one(handle, sql, sandbox);
    return read_rows(handle, statement.get(), sandbox);
}

std::vector<std::string> view_names(SQLite::Database& db) {
    std::vector<std::string> names;
    SQLite::Statement statement(db, "SELECT name FROM sqlite_master WHERE type = 'view' "
                                    "ORDER BY name");
    while (statement.executeStep()) {
        names.push_back(statement.getColumn(0).getString());
    }
    return names;
}

} // namespace bb
