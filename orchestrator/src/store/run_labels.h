#pragma once
// A user's labels on a run: tags to find it by and a note saying what its stored settings cannot
// ("rebuilt after the ccache wipe"). `bootbench runs --run ID --tag/--untag/--note` writes them,
// `bootbench runs` lists them; no analysis ever reads them.
#include "store/database.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace bb {

// The first schema that stores labels (db/migrations/0011_run_labels.sql): an older file, opened
// only for reading, lists its runs without any.
constexpr int k_run_labels_schema = 11;

// A tag is 1 to 64 characters of A-Z a-z 0-9 . _ - (no quoting needed in a shell or a filter);
// a note is at most 1000 bytes of UTF-8 on one line without control characters (it reaches the
// terminal as written). Each throws Error saying what is wrong.
void check_run_tag(const std::string& tag);
void check_run_note(const std::string& note);

struct RunLabelChange {
    std::vector<std::string> add;
    std::vector<std::string> remove;
    std::optional<std::string> note; // set: replaces the note; "" removes it
};

// Applies `change` to run `run_id` in one transaction. Error: no such run, an invalid label, or a
// tag to remove that the run does not have.
void label_run(Database& db, long long run_id, const RunLabelChange& change);

struct RunLabels {
    std::vector<std::string> tags; // sorted
    std::string note;              // empty: none
};
// Every labelled run's labels, by run id.
std::map<long long, RunLabels> run_labels(Database& db);

} // namespace bb
