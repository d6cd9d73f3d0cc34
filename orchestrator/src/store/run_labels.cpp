#include "store/run_labels.h"

#include "store/run_queries.h"
#include "util/error.h"
#include "util/utf8.h"

#include <algorithm>
#include <fmt/format.h>

namespace bb {

namespace {

constexpr size_t k_max_tag = 64;
constexpr size_t k_max_note = 1000;

bool tag_character(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
           c == '_' || c == '-';
}

bool has_tag(Database& db, long long run_id, const std::string& tag) {
    SQLite::Statement select(db.sql(), "SELECT 1 FROM run_tags WHERE run_id = ? AND tag = ?");
    select.bind(1, static_cast<int64_t>(run_id));
    select.bind(2, tag);
    return select.executeStep();
}

void execute(Database& db, const char* sql, long long run_id, const std::string& text) {
    SQLite::Statement statement(db.sql(), sql);
    statement.bind(1, static_cast<int64_t>(run_id));
    statement.bind(2, text);
    statement.exec();
}

} // namespace

void check_run_tag(const std::string& tag) {
    if (tag.empty() || tag.size() > k_max_tag ||
        !std::all_of(tag.begin(), tag.end(), tag_character)) {
        throw Error(fmt::format("tag '{}' is not 1 to {} characters of A-Z a-z 0-9 . _ -",
                                tag.substr(0, 80), k_max_tag));
    }
}

void check_run_note(const std::string& note) {
    if (note.size() > k_max_note) {
        throw Error(
            fmt::format("the note is {} bytes; at most {} are kept", note.size(), k_max_note));
    }
    if (const auto bad = first_invalid_utf8(note)) {
        throw Error(fmt::format("the note is not UTF-8 (byte {} of it)", *bad + 1));
    }
    const auto control = std::find_if(note.begin(), note.end(), [](char c) {
        return static_cast<unsigned char>(c) < 0x20 || c == 0x7f;
    });
    if (control != note.end()) {
        throw Error(fmt::format("the note holds a control character (byte {}: 0x{:02x}); a note is "
                                "one line of text",
                                control - note.begin() + 1, static_cast<unsigned char>(*control)));
    }
}

void label_run(Database& db, long long run_id, const RunLabelChange& change) {
    for (const auto& tag : change.add) {
        check_run_tag(tag);
    }
    for (const auto& tag : change.remove) {
        check_run_tag(tag);
    }
    if (change.note) {
        check_run_note(*change.note);
    }
    // Inside the transaction: a delete of the run racing this one either finished first (then
    // "no run N", exit 2) or waits for this commit; never a raw foreign-key failure.
    SQLite::Transaction transaction(db.sql(), SQLite::TransactionBehavior::IMMEDIATE);
    require_runs(db, {run_id});
    for (const auto& tag : change.remove) {
        if (!has_tag(db, run_id, tag)) {
            throw Error(fmt::format("run {} has no tag '{}' (bootbench runs lists its tags); "
                                    "nothing was changed",
                                    run_id, tag));
        }
        execute(db, "DELETE FROM run_tags WHERE run_id = ? AND tag = ?", run_id, tag);
    }
    for (const auto& tag : change.add) {
        execute(db, "INSERT OR IGNORE INTO run_tags (run_id, tag) VALUES (?, ?)", run_id, tag);
    }
    if (change.note) {
        execute(db, "UPDATE runs SET note = nullif(?2, '') WHERE id = ?1", run_id, *change.note);
    }
    transaction.commit();
}

std::map<long long, RunLabels> run_labels(Database& db) {
    std::map<long long, RunLabels> labels;
    if (db.schema_version() < k_run_labels_schema) {
        return labels;
    }
    SQLite::Statement tags(db.sql(), "SELECT run_id, tag FROM run_tags ORDER BY run_id, tag");
    while (tags.executeStep()) {
        labels[tags.getColumn(0).getInt64()].tags.push_back(tags.getColumn(1).getString());
    }
    SQLite::Statement notes(db.sql(), "SELECT id, note FROM runs WHERE note IS NOT NULL");
    while (notes.executeStep()) {
        labels[notes.getColumn(0).getInt64()].note = notes.getColumn(1).getString();
    }
    return labels;
}

} // namespace bb
