#include "cli/commands.h"
#include "cli/option_checks.h"
#include "completion/value_kind.h"
#include "report/render_support.h"
#include "report/text_table.h"
#include "store/database.h"
#include "store/run_labels.h"
#include "store/run_list.h"
#include "store/run_queries.h"
#include "util/error.h"
#include "util/markup_escape.h"
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
what reports use), whether the run declared an analysis (its verdict:
`bootbench report --view verdict --run ID`) and its tags; notes follow the table.

Tags and a note are a user's labels on a run, never read by an analysis: tags to find
runs by (--tagged), a note for what the stored settings cannot say. --run ID with
--tag, --untag (each repeatable) or --note changes them in one transaction; --note ''
removes the note. A tag is 1 to 64 characters of A-Z a-z 0-9 . _ -; a note one line of
at most 1000 bytes.

--delete ID removes one run with everything that belongs to it — its boots and their
metrics, histograms and events, its cells — in one transaction that commits only when
SQLite's foreign-key check and integrity check pass afterwards. It says what it would
remove and does nothing without --yes. A run that is another (nightly) run's baseline is
not deleted; nor is a run still marked running (a bootbench writing it may be live) without
--force. Ctrl-C or SIGTERM during a delete rolls it back (exit 130). Rows that pointed at a
missing row before the delete are named as a warning, not blamed on the run.

Examples:
  bootbench runs
  bootbench runs --experiment srcu-boot-kvmhost
  bootbench --db docs/data/seed003.sqlite runs --json
  bootbench runs --delete 4            # what it would remove
  bootbench runs --delete 4 --yes
  bootbench runs --run 3 --tag baseline --note "host idle; ccache warm"
  bootbench runs --tagged baseline
  bootbench runs --run 3 --untag baseline --note ''
)";

struct RunsOptions {
    std::string experiment;
    std::string tagged;
    long long delete_id = 0;
    bool yes = false;
    bool force = false; // delete a run that is still `running`
    bool json = false;
    long long run_id = 0; // --run: the run to label, or the one to list
    std::string note_text;
    RunLabelChange change; // note set whenever --note was given, even empty
};

bool changes_labels(const RunLabelChange& change) {
    return !change.add.empty() || !change.remove.empty() || change.note.has_value();
}

// "2026-12-01T23:39:09.451Z" as "2026-12-01T23:39:09" (UTC, as the header says): the text
// list's times to the second; --json keeps them whole.
std::string to_the_second(const std::string& timestamp) {
    return timestamp.size() > 19 ? timestamp.substr(0, 19) : timestamp;
}

Table runs_table(const std::vector<RunListing>& runs) {
    Table table;
    table.headers = {"run",   "experiment", "mode",     "status", "started (UTC)", "finished (UTC)",
                     "boots", "used",       "declared", "tags"};
    table.right_aligned = {true, false, false, false, false, false, true, true, false, false};
    // Fitted like every text table (120 columns unless the terminal says otherwise): every
    // column stays where scripts of old expect it, and the finish time is what goes first when
    // the table is too wide (its last line says so).
    table.leave_out_order = {0, 0, 0, 0, 0, 1, 0, 0, 0, 0};
    for (const auto& run : runs) {
        table.rows.push_back(
            // A stored name comes from whatever file made the database: shown, never obeyed.
            {std::to_string(run.id), run.experiment.empty() ? "-" : terminal_text(run.experiment),
             run.mode, std::string(to_string(run.status)), to_the_second(run.started_at),
             run.finished_at.empty() ? "-" : to_the_second(run.finished_at),
             std::to_string(run.boots), std::to_string(run.used), run.declared ? "yes" : "no",
             run.tags.empty() ? "-" : fmt::format("{}", fmt::join(run.tags, ","))});
    }
    return table;
}

nlohmann::json runs_json(const std::vector<RunListing>& runs) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& run : runs) {
        out.push_back(
            {{"id", run.id},
             {"experiment", run.experiment},
             {"mode", run.mode},
             {"status", std::string(to_string(run.status))},
             {"started_at", run.started_at},
             {"finished_at",
              run.finished_at.empty() ? nlohmann::json(nullptr) : nlohmann::json(run.finished_at)},
             {"boots", run.boots},
             {"used", run.used},
             {"declared_analysis", run.declared},
             {"tags", run.tags},
             {"note", run.note.empty() ? nlohmann::json(nullptr) : nlohmann::json(run.note)}});
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
                            run.id,
                            run.experiment.empty() ? "ad-hoc"
                                                   : terminal_text(run.experiment).c_str(),
                            run.started_at.c_str(), run.boots, db.path().string().c_str());
                return k_exit_ok;
            }
        }
        throw Error(fmt::format("no run {} in {} (bootbench runs lists them)", options.delete_id,
                                db.path().string()));
    }
    Database db(global.db_path(), Database::Mode::ReadWrite);
    const DeletedRun deleted = delete_run(db, options.delete_id, options.force);
    std::printf("deleted run %lld: %lld boots, %lld metrics (integrity check ok)\n",
                options.delete_id, deleted.boots, deleted.metrics);
    for (const auto& row : deleted.damaged_before) {
        std::fprintf(stderr,
                     "bootbench: warning: %s points at a missing row; it did before this delete "
                     "and was left as it was\n",
                     terminal_text(row).c_str());
    }
    return k_exit_ok;
}

int label_one(const RunsOptions& options, const GlobalOptions& global) {
    Database db(global.db_path(), Database::Mode::ReadWrite);
    label_run(db, options.run_id, options.change);
    const RunLabels labels = run_labels(db)[options.run_id];
    std::printf("run %lld: tags %s; note %s\n", options.run_id,
                labels.tags.empty() ? "none"
                                    : fmt::format("{}", fmt::join(labels.tags, ", ")).c_str(),
                labels.note.empty() ? "none" : terminal_text(labels.note).c_str());
    return k_exit_ok;
}

int run_runs(const RunsOptions& options, const GlobalOptions& global) {
    if (options.delete_id > 0) {
        return delete_one(options, global);
    }
    if (changes_labels(options.change)) {
        if (options.run_id == 0) {
            throw Error("--tag, --untag and --note label one run: name it with --run ID "
                        "(bootbench runs lists them)");
        }
        return label_one(options, global);
    }
    Database db(global.db_path(), Database::Mode::ReadOnly);
    auto runs = list_runs(db, options.experiment, options.tagged);
    if (options.run_id > 0) {
        require_runs(db, {options.run_id});
        std::erase_if(runs, [&options](const RunListing& run) { return run.id != options.run_id; });
    }
    if (options.json) {
        std::fputs(json_document(runs_json(runs)).c_str(), stdout);
        return k_exit_ok;
    }
    if (runs.empty()) {
        std::printf("no runs%s in %s\n",
                    options.experiment.empty() ? ""
                                               : fmt::format(" of {}", options.experiment).c_str(),
                    db.path().string().c_str());
        return k_exit_ok;
    }
    std::string out = render_aligned(runs_table(runs));
    for (const auto& run : runs) {
        if (!run.note.empty()) {
            out += fmt::format("note of run {}: {}\n", run.id, terminal_text(run.note));
        }
    }
    out = terminal_output(out); // tags, notes and times are stored strings
    std::fwrite(out.data(), 1, out.size(), stdout);
    return k_exit_ok;
}

} // namespace

void add_runs_command(CLI::App& app, GlobalOptions& global, int& exit_status) {
    auto options = std::make_shared<RunsOptions>();
    CLI::App* cmd = app.add_subcommand(
        "runs", "List the runs of the database, label one (tags, a note) or delete one");
    cmd->footer(k_runs_help);
    cmd->add_option("--experiment", options->experiment, "only this experiment's runs")
        ->type_name(k_experiment_value);
    cmd->add_option("--delete", options->delete_id, "delete this run and its boots (with --yes)")
        ->type_name(k_run_value)
        ->check(integer_at_least(1));
    cmd->add_flag("--yes", options->yes, "with --delete: really delete");
    cmd->add_flag("--force", options->force,
                  "with --delete: also a run still marked running (no writer may be live)");
    cmd->add_flag("--json", options->json, "print the list as JSON");
    cmd->add_option("--run", options->run_id, "the run to label (or to list alone)")
        ->type_name(k_run_value)
        ->check(integer_at_least(1));
    cmd->add_option("--tag", options->change.add, "with --run: add this tag (repeatable)");
    cmd->add_option("--untag", options->change.remove, "with --run: remove this tag (repeatable)");
    CLI::Option* note =
        cmd->add_option("--note", options->note_text, "with --run: the run's note ('' removes it)");
    cmd->add_option("--tagged", options->tagged, "only the runs with this tag");
    cmd->callback([options, note, &global, &exit_status] {
        if (note->count() > 0) {
            options->change.note = options->note_text;
        }
        exit_status = run_runs(*options, global);
    });
}

} // namespace bb
