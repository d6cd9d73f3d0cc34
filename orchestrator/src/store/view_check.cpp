#include "store/view_check.h"

#include "util/error.h"

#include <SQLiteCpp/SQLiteCpp.h>
#include <cctype>
#include <fmt/format.h>
#include <string_view>

namespace bb {

namespace {
// Whitespace runs as one space, none at either end: the stored statement keeps the migration
// file's own layout, and comparing layout is not the point.
std::string collapsed(const std::string& sql) {
    std::string out;
    bool space = false;
    for (const char c : sql) {
        if (std::isspace(static_cast<unsigned char>(c)) != 0) {
            space = !out.empty();
            continue;
        }
        if (space) {
            out += ' ';
            space = false;
        }
        out += c;
    }
    return out;
}
bool starts_with_words(std::string_view text, std::string_view words) {
    if (text.size() < words.size()) {
        return false;
    }
    for (size_t i = 0; i < words.size(); ++i) {
        if (std::toupper(static_cast<unsigned char>(text[i])) != words[i]) {
            return false;
        }
    }
    return true;
}

// The CREATE VIEW and DROP VIEW statements of a migration, each up to (not with) its ';'.
// Migration files end every statement with a ';' at the end of its line.
std::vector<std::string> view_statements(const std::string& sql) {
    std::vector<std::string> statements;
    size_t line = 0;
    while (line < sql.size()) {
        const size_t start = sql.find_first_not_of(" \t", line);
        if (start != std::string::npos &&
            (starts_with_words(std::string_view(sql).substr(start), "CREATE VIEW ") ||
             starts_with_words(std::string_view(sql).substr(start), "DROP VIEW "))) {
            size_t end = start;
            for (;;) {
                end = sql.find(';', end);
                const size_t after = end == std::string::npos
                                         ? std::string::npos
                                         : sql.find_first_not_of(" \t", end + 1);
                if (end == std::string::npos || after == std::string::npos || sql[after] == '\n') {
                    break;
                }
                ++end;
            }
            statements.push_back(sql.substr(start, end == std::string::npos ? end : end - start));
            line = end == std::string::npos ? sql.size() : end + 1;
            continue;
        }
        const size_t next = sql.find('\n', line);
        line = next == std::string::npos ? sql.size() : next + 1;
    }
    return statements;
}

// The word after CREATE VIEW / DROP VIEW.
std::string view_name(const std::string& statement) {
    const size_t keyword = statement.find_first_of(" \t\n", statement.find_first_of(" \t\n") + 1);
    const size_t start = statement.find_first_not_of(" \t\n", keyword);
    const size_t end = statement.find_first_of(" \t\n;(", start);
    return statement.substr(start, end == std::string::npos ? end : end - start);
}
} // namespace

std::map<std::string, std::string> expected_views(const std::vector<Migration>& migrations,
                                                  int version) {
    std::map<std::string, std::string> views;
    for (const Migration& migration : migrations) {
        if (migration.number > version) {
            break;
        }
        for (const std::string& statement : view_statements(migration.sql)) {
            const std::string name = view_name(statement);
            if (starts_with_words(statement, "DROP VIEW")) {
                views.erase(name);
            } else {
                views[name] = collapsed(statement);
            }
        }
    }
    return views;
}

void check_views_are_bootbench_own(SQLite::Database& db, const std::string& path, int version) {
    const auto expected = expected_views(bundled_migrations(), version);
    SQLite::Statement views(db, "SELECT name, sql FROM sqlite_schema WHERE type = 'view'");
    while (views.executeStep()) {
        const std::string name = views.getColumn(0).getString();
        const auto own = expected.find(name);
        if (own == expected.end() || own->second != collapsed(views.getColumn(1).getString())) {
            throw Error(fmt::format(
                "database {}: view {} is not bootbench's definition at schema version {} (it "
                "was edited or added by hand); reports read through the views, so this file is "
                "not read — recreate the view, or query the tables with sqlite3",
                path, name, version));
        }
    }
}

} // namespace bb
