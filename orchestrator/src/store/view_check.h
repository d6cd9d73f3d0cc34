#pragma once
#include "store/migrations.h"

#include <map>
#include <string>
#include <vector>

namespace SQLite {
class Database;
}

namespace bb {

// The views bootbench's migrations 1..`version` leave in a database, by name, each as its
// CREATE VIEW statement with whitespace collapsed.
std::map<std::string, std::string> expected_views(const std::vector<Migration>& migrations,
                                                  int version);

// Reports read through the documented views (v_samples, v_histograms, ...), and a database is
// a file anyone can hand over: a view redefined in it (tripling one variant's times, or a
// recursive one that never ends) would decide a verdict the tables do not support (issue 32,
// item 5). Throws Error naming the file and the view when any view of the schema differs from
// bootbench's definition at the file's schema version, or is one bootbench never defines.
void check_views_are_bootbench_own(SQLite::Database& db, const std::string& path, int version);

} // namespace bb
