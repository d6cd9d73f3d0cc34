#include "pipeline/failed_run.h"

#include "store/boot_store.h"
#include "util/error.h"

#include <fmt/format.h>

namespace bb {

namespace {
constexpr int k_failed_run_mark_wait_ms = 15'000;
} // namespace

void end_failed_run(Database& db, long long run_id, const std::string& failure,
                    const std::function<void(const std::string&)>& note,
                    const std::string& resume_hint) {
    note(fmt::format("stopped: storing a sample failed: {}; every guest was stopped, marking "
                     "run {} failed",
                     failure, run_id));
    std::string marked = fmt::format("run {} is marked failed", run_id);
    try {
        db.sql().setBusyTimeout(k_failed_run_mark_wait_ms);
        BootStore(db).finish_run(run_id, RunStatus::Failed);
    } catch (const std::exception& e) {
        marked = fmt::format("run {} could not be marked failed ({}) and still says running",
                             run_id, e.what());
    }
    throw RuntimeFailure(fmt::format(
        "storing a sample failed: {}. {}; the samples stored before are kept{}", failure, marked,
        resume_hint.empty()
            ? std::string()
            : fmt::format(": once the database is writable again, `{}` boots the rest",
                          resume_hint)));
}

} // namespace bb
