#pragma once
// A run whose store failed (a lock held past the busy timeout, a full disk): `run` and `boot`
// end it alike — marked failed, not left `running` — and say how to go on.
#include "store/database.h"

#include <functional>
#include <string>

namespace bb {

// Marks run `run_id` failed — waiting longer than usual for the database, which has just
// failed once — and throws the RuntimeFailure that ends the process (exit 3). `resume_hint`:
// the command that boots the rest ("bootbench run FILE --resume 7"), or "" when none can.
[[noreturn]] void end_failed_run(Database& db, long long run_id, const std::string& failure,
                                 const std::function<void(const std::string&)>& note,
                                 const std::string& resume_hint);

} // namespace bb
