#include "cli/commands.h"
#include "report/text_table.h"
#include "store/database.h"
#include "store/run_list.h"
#include "util/error.h"
#include "util/terminal.h"

#include <cstdio>
#include <fmt/format.h>
#include <memory>
#include <nlohmann/json.hpp>

namespace bb {

namespace {

constexpr const char* k_runs_help =
    R"(Lists the runs of the results database, oldest first: id, experiment, mode, status,
start and end (UTC), boots stored, boots used (outcome ok, parameters applied, not loaded:
what reports use) and whether the run declared an analysis (its verdict:
`bootbench report --view verdict --run ID`).

--delete ID removes one run with everything that belongs to it — its boots and their
metrics, histograms and events, its cells — in one transaction that commits only when
SQLite's foreign-key check and integrity check pass afterwards. It says what it would
remove and does nothing without --yes. A run that is another (nightly) run's baseline is
not deleted.

Examples:
  bootbench runs
  bootbench runs --experiment srcu-boot-kvmhost
  bootbench --db docs/data/seed003.sqlite runs --json
  bootbench runs --delete 4            # what it would remove
  bootbench runs --delete 4 --yes
)";

struct RunsOptions {
    std::string experiment;
    long long delete_id = 0;
    bool yes = false;
    bool json = false;
};

Table runs_table(const std::vector<RunListing>& runs) {
    Table table;
    table.headers = {"run",   "experiment", "mode",    "status", "started (UTC)", "finished (UTC)",
                     "boots", "used",       "declared"};
    table.right_aligned = {true, false, false, false, false, false, true, true, false};
    for (const auto& run : runs) {
        table.rows.push_back(
            {std::to_string(run.id), run.experiment.empty() ? "-" : run.experiment, run.mode,
             run.status, run.started_at, run.finished_at.empty() ? "-" : run.finished_at,
             std::to_string(run.boots), std::to_string(run.used), run.declared ? "yes" : "no"});
    }
    return table;
}

nlohmann::json runs_json(const std::vector<RunListing>& runs) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& run : runs) {
        out.push_back({{"id", run.id},
                       {"experiment", run.experiment},
                       {"mode", run.mode},
                       {"status", run.status},
                       {"started_at", run.started_at},
                       {"finished_at", run.finished_at.empty() ? nlohmann::json(nullptr)
                                                               : nlohmann::json(run.finished_at)},
                       {"boots", run.boots},
                       {"used", run.used},
                       {"declared_analysis", run.declared}});
    }
    return out;
}

int delete_one(const RunsOptions& options, const GlobalOptions& global) {
    if (!options.yes) {
        Database db(global.db_path(), Database::Mode::ReadOnly);
        for (const auto& run : list_runs(db, "")) {
            if (run.id == options.delete_id) {
                std::printf("would delete run %lld (%s, %s, %lld boots) from %s; add --yes to "
                            "delete it\n",
                            run.id, run.experiment.empty() ? "ad-hoc" : run.experiment.c_str(),
                            run.started_at.c_str(), run.boots, db.path().string().c_str());
                return k_exit_ok;
            }
        }
        throw Error(fmt::format("no run {} in {} (bootbench runs lists them)", options.delete_id,
                                db.path().string()));
    }
    Database db(global.db_path(), Database::Mode::ReadWrite);
    const DeletedRun deleted = delete_run(db, options.delete_id);
    std::printf("deleted run %lld: %lld boots, %lld metrics (integrity check ok)\n",
                options.delete_id, deleted.boots, deleted.metrics);
    return k_exit_ok;
}

int run_runs(const RunsOptions& options, const GlobalOptions& global) {
    if (options.delete_id > 0) {
        return delete_one(options, global);
    }
    Database db(global.db_path(), Database::Mode::ReadOnly);
    const auto runs = list_runs(db, options.experiment);
    if (options.json) {
        std::printf("%s\n", runs_json(runs).dump(2).c_str());
        return k_exit_ok;
    }
    if (runs.empty()) {
        std::printf("no runs%s in %s\n",
                    options.experiment.empty() ? ""
                                               : fmt::format(" of {}", options.experiment).c_str(),
                    db.path().string().c_str());
        return k_exit_ok;
    }
    const std::string out = render_aligned(runs_table(runs));
    std::fwrite(out.data(), 1, out.size(), stdout);
    return k_exit_ok;
}

} // namespace

void add_runs_command(CLI::App& app, GlobalOptions& global, int& exit_status) {
    auto options = std::make_shared<RunsOptions>();
    CLI::App* cmd = app.add_subcommand("runs", "List the runs of the database, or delete one");
    cmd->footer(k_runs_help);
    cmd->add_option("--experiment", options->experiment, "only this experiment's runs");
    cmd->add_option("--delete", options->delete_id, "delete this run and its boots (with --yes)")
        ->check(CLI::PositiveNumber);
    cmd->add_flag("--yes", options->yes, "with --delete: really delete");
    cmd->add_flag("--json", options->json, "print the list as JSON");
    cmd->callback([options, &global, &exit_status] { exit_status = run_runs(*options, global); });
}

} // namespace bb
