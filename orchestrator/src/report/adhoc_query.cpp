#include "report/adhoc_query.h"

#include "report/csv_format.h"
#include "report/markdown_table.h"
#include "report/render_support.h"
#include "report/text_table.h"
#include "util/error.h"

#include <fmt/format.h>
#include <memory>
#include <nlohmann/json.hpp>
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

nlohmann::json cell_json(const QueryCell& cell) {
    switch (cell.kind) {
    case QueryCell::Kind::Null:
        return nullptr;
    case QueryCell::Kind::Integer:
        return cell.integer;
    case QueryCell::Kind::Real:
        return number_or_null(cell.real);
    case QueryCell::Kind::Text:
        return cell.text;
    case QueryCell::Kind::Blob:
        return cell.display();
    }
    return nullptr;
}

} // namespace

std::string QueryCell::display() const {
    switch (kind) {
    case Kind::Null:
        return "NULL";
    case Kind::Integer:
        return std::to_string(integer);
    case Kind::Real:
        return fmt::format("{}", real);
    case Kind::Text:
        return text;
    case Kind::Blob:
        return fmt::format("<blob {} bytes>", bytes);
    }
    return {};
}

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

std::optional<QueryFormat> parse_query_format(std::string_view name) {
    if (name == "text") {
        return QueryFormat::Text;
    }
    if (name == "csv") {
        return QueryFormat::Csv;
    }
    if (name == "json") {
        return QueryFormat::Json;
    }
    if (name == "md") {
        return QueryFormat::Markdown;
    }
    return std::nullopt;
}

namespace {
// One line per row: a newline inside a value would break the alignment (or the Markdown row).
Table result_table(const QueryResult& result) {
    Table table;
    table.headers = result.columns;
    if (!result.rows.empty()) {
        for (const auto& cell : result.rows.front()) {
            table.right_aligned.push_back(cell.kind == QueryCell::Kind::Integer ||
                                          cell.kind == QueryCell::Kind::Real);
        }
    }
    for (const auto& row : result.rows) {
        std::vector<std::string> cells;
        for (const auto& cell : row) {
            std::string text = cell.display();
            for (char& c : text) {
                if (c == '\n' || c == '\r') {
                    c = ' ';
                }
            }
            cells.push_back(std::move(text));
        }
        table.rows.push_back(std::move(cells));
    }
    return table;
}
} // namespace

std::string render_query_result(const QueryResult& result, QueryFormat format) {
    switch (format) {
    case QueryFormat::Text:
    case QueryFormat::Markdown: {
        const Table table = result_table(result);
        if (format == QueryFormat::Markdown) {
            return render_markdown(table);
        }
        return render_aligned(table) +
               fmt::format("({} row{})\n", result.rows.size(), result.rows.size() == 1 ? "" : "s");
    }
    case QueryFormat::Csv: {
        std::string out;
        for (size_t c = 0; c < result.columns.size(); ++c) {
            out += (c == 0 ? "" : ",") + csv_field(result.columns[c]);
        }
        out += "\n";
        for (const auto& row : result.rows) {
            for (size_t c = 0; c < row.size(); ++c) {
                out += (c == 0 ? "" : ",") +
                       (row[c].kind == QueryCell::Kind::Null ? "" : csv_field(row[c].display()));
            }
            out += "\n";
        }
        return out;
    }
    case QueryFormat::Json: {
        // One object per row, keyed by column name (a repeated name keeps the last value).
        nlohmann::json rows = nlohmann::json::array();
        for (const auto& row : result.rows) {
            nlohmann::json object = nlohmann::json::object();
            for (size_t c = 0; c < row.size(); ++c) {
                object[result.columns[c]] = cell_json(row[c]);
            }
            rows.push_back(std::move(object));
        }
        return json_document(rows);
    }
    }
    return {};
}

} // namespace bb
