#pragma once
// Runs as things a user manages (`bootbench runs`): list them with what they hold, delete one
// with everything that belongs to it.
#include "store/database.h"
#include "store/run_status.h"

#include <string>
#include <vector>

namespace bb {

struct RunListing {
    long long id = 0;
    std::string experiment; // empty for ad-hoc boots
    std::string mode;       // boot | adhoc | nightly
    RunStatus status = RunStatus::Running;
    std::string started_at;
    std::string finished_at; // empty while running or when it never finished
    long long boots = 0;
    long long used = 0;            // v_samples.used: the boots reports use
    bool declared = false;         // the run stored a declared analysis
    std::vector<std::string> tags; // the user's labels (store/run_labels.h), sorted
    std::string note;
};

// Every run, oldest first; `experiment` non-empty: only that experiment's; `tag` non-empty: only
// the runs tagged with it.
std::vector<RunListing> list_runs(Database& db, const std::string& experiment,
                                  const std::string& tag = "");

struct DeletedRun {
    long long boots = 0;
    long long metrics = 0;
    // Rows that pointed at a missing row before the delete (damage the delete did not cause,
    // and left as it was): "boots row 7 → hosts", one each.
    std::vector<std::string> damaged_before;
};

// Deletes run `run_id`, its boots (with their metrics, histograms and events), its cells and tags,
// in one transaction that commits only when SQLite's foreign-key and integrity checks pass
// afterwards. Refused (Error) when another run names it as its baseline, when there is no such
// run, and when the run is still `running` (a writer may be live) unless `force`. A SIGINT or
// SIGTERM (util/interrupt.h) stops the statements and rolls everything back (Interrupted).
DeletedRun delete_run(Database& db, long long run_id, bool force = false);

} // namespace bb
