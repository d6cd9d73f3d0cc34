#include "store/view_check.h"

#include "util/error.h"

#include <SQLiteCpp/SQLiteCpp.h>
#include <cctype>
#include <fmt/format.h>
#include <regex>

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
} // namespace

std::map<std::string, std::string> expected_views(const std::vector<Migration>& migrations,
                                                  int version) {
    // Migration files write each statement to a ';' that ends its line.
    static const std::regex statement(
        R"((CREATE VIEW (\w+)[\s\S]*?);[ \t]*(?:\n|$)|DROP VIEW (\w+);)", std::regex::icase);
    std::map<std::string, std::string> views;
    for (const Migration& migration : migrations) {
        if (migration.number > version) {
            break;
        }
        for (std::sregex_iterator it(migration.sql.begin(), migration.sql.end(), statement), end;
             it != end; ++it) {
            if ((*it)[2].matched) {
                views[(*it)[2].str()] = collapsed((*it)[1].str());
            } else {
                views.erase((*it)[3].str());
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
