#pragma once
#include "store/boot_record.h"
#include "store/database.h"
#include "store/run_status.h"
#include "util/host_facts.h"

#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace bb {

struct RunStart {
    std::optional<long long> experiment_id;
    std::string mode = "boot"; // boot | adhoc | nightly
    std::optional<long long> seed;
    std::string command_line;
    std::optional<std::string> analysis_json; // the declared analysis (schema 9)
};

// Why a cell of a precision-based run stopped booting (table run_cells, schema 9).
struct CellStop {
    std::string cell_key;
    int repeats = 0;
    std::string reason; // "precision reached at n=8", "max reached (n=20)"
};

// What identifies a stored run for resuming it: its experiment (by name and by the content
// hash of the file it was started from), seed and mode.
struct StoredRun {
    long long run_id = 0;
    long long experiment_id = 0;
    std::string experiment_name;
    std::string experiment_sha256;
    long long seed = 0;
    std::string mode;
};

// insert_boot found the (run, cell, repeat) already stored as a sample: another process booted
// the same repeat of the same run. The second copy is not stored.
class SampleAlreadyStored : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

struct AccelProbeRecord {
    bool kvm_works = false;
    std::string reason;
    double seconds = 0;
    std::string probed_at;
};

// Writes runs and boots. Each boot, with its events, metrics and histograms, is one
// transaction: a crash mid-boot leaves the database as it was before that boot.
class BootStore {
  public:
    explicit BootStore(Database& db) : m_db(db) {}
    Database& database() { return m_db; }

    // `libvirt_uri`: a host reached through libvirt (a fleet host), recorded with it.
    long long ensure_host(const HostFacts& facts, const std::string& libvirt_uri = "");
    long long ensure_experiment(const std::string& name, const std::string& yaml);
    // The latest run of `mode` with this seed whose experiment is `experiment_name`: the run
    // to resume, or (when its content differs from the file's) the reason to refuse.
    std::optional<StoredRun> find_run(const std::string& experiment_name, long long seed,
                                      const std::string& mode);
    // What run `run_id` was (to validate --resume).
    std::optional<StoredRun> run_identity(long long run_id);
    void reopen_run(long long run_id);
    // The nightlies of this experiment that finished, newest first, at most `limit` of them;
    // `good_only`: only those judged good — verdict ok, or a regression someone accepted
    // (`bootbench runs --run N --tag accepted`): a flagged night stays out of the reference.
    std::vector<long long> finished_nightlies(const std::string& experiment_name, int limit,
                                              bool good_only);
    void set_nightly_verdict(long long run_id, const std::string& verdict,
                             std::optional<long long> baseline_run_id);
    // (cell_key, repeat) of every boot of the run that counts as done (not infra-error).
    std::set<std::pair<std::string, int>> stored_samples(long long run_id);
    long long begin_run(long long host_id, const RunStart& start);
    void finish_run(long long run_id, RunStatus status);
    // The analysis the run was started with; none for runs without one (or before schema 9).
    std::optional<std::string> run_analysis(long long run_id);
    void record_cell_stop(long long run_id, const CellStop& stop);
    std::vector<CellStop> cell_stops(long long run_id);
    // Throws SampleAlreadyStored when the boot's (run, cell, repeat) is already a sample.
    long long insert_boot(const BootRecord& boot);

    std::optional<AccelProbeRecord> latest_accel_probe(long long host_id, const std::string& arch,
                                                       const std::string& qemu_version);
    void insert_accel_probe(long long host_id, const std::string& arch,
                            const std::string& qemu_version, const AccelProbeRecord& probe);

  private:
    Database& m_db;
};

std::string tool_version();
std::string utc_now_iso8601();

} // namespace bb
