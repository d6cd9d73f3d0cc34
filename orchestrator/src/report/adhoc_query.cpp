#include "report/adhoc_query.h"

#include "report/csv_format.h"
#include "report/markdown_table.h"
#include "report/render_support.h"
#include "report/text_table.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace bb {

namespace {

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
        return cell.query_text();
    }
    return nullptr;
}

} // namespace

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
            std::string text = cell.query_text();
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
                       (row[c].kind == QueryCell::Kind::Null ? "" : csv_field(row[c].query_text()));
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
