#pragma once
// SQLite's errors as bootbench's kinds of failure (util/error.h).
#include <SQLiteCpp/Exception.h>
#include <string>
#include <string_view>

namespace bb {

// Another process held the database past the busy timeout ("database is locked"): nothing the
// user got wrong, so it is the environment failing (exit status 3), not a usage error.
bool stayed_locked(const SQLite::Exception& e);
// What to do about it, said after SQLite's "database is locked".
inline constexpr std::string_view k_stayed_locked_advice =
    "another process held it past the busy timeout; run again once that process is done";

// Throws "`doing`: SQLite's message (advice)": a RuntimeFailure, advising to wait, when the
// database stayed locked, else an Error with `advice` (a file that is not a database, a
// read-only path: the user's to fix; "" for none).
[[noreturn]] void throw_database_error(const SQLite::Exception& e, const std::string& doing,
                                       const std::string& advice);

} // namespace bb
