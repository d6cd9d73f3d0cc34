#pragma once
// What `bootbench export --format kcidb` reads (docs/kcidb.md): each boot of the chosen runs
// with the columns a KCIDB test carries, and the build rows those boots name. The mapping to
// KCIDB objects is kcidb/kcidb_document.h; this file holds the SQL.
#include "store/build_store.h"
#include "store/database.h"

#include <optional>
#include <string>
#include <vector>

namespace bb {

struct KcidbMetric {
    std::string name;
    double value = 0;
    std::string unit;
};

struct KcidbBootRow {
    long long id = 0;
    long long run_id = 0;
    std::string experiment; // "" for ad-hoc boots
    std::string run_mode;
    std::string run_started_at;
    std::string host_fingerprint; // the host the guest ran on (a fleet's), else the run's
    std::string host_name;
    std::string cell_key;
    std::string params_json;
    int repeat_index = 0;
    std::string arch;
    std::string machine;
    int smp = 0;
    int memory_mb = 0;
    std::string kernel_sha256;
    std::optional<std::string> build_key;
    std::string firmware_name;
    std::string cmdline;
    std::string accel;
    std::string launcher;
    std::string outcome;
    std::string outcome_reason;
    std::optional<double> boot_seconds;
    std::optional<double> guest_marker_seconds;
    std::optional<double> first_byte_seconds;
    std::optional<double> banner_seconds;
    std::optional<double> run_init_seconds;
    std::optional<double> wall_seconds;
    std::optional<double> foreign_load;
    bool loaded = false; // as v_samples classifies the boot
    bool used = false;
    std::optional<std::string> params_not_applied;
    std::string console_tail;
    std::string started_at;
    std::string timing_marker; // "" before schema 10
    std::string start_marker;
    std::vector<KcidbMetric> metrics; // in the order the guest printed them
};

struct KcidbRows {
    std::vector<KcidbBootRow> boots; // by run, then boot id
    std::vector<BuildRow> builds;    // the rows the boots' build keys name, by key
};

// Every boot of `run_ids` (every run when empty); throws Error naming a run id that is not in
// the database.
KcidbRows read_kcidb_rows(Database& db, const std::vector<long long>& run_ids);

} // namespace bb
