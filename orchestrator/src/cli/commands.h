#pragma once
#include <CLI/CLI.hpp>
#include <filesystem>
#include <string>

namespace bb {

// Options every subcommand shares.
struct GlobalOptions {
    std::string db;
    bool quiet = false;
    bool verbose = false;
    std::string command_line; // as typed, recorded with each run

    std::filesystem::path db_path() const;
    // "--db 'PATH' " when the user named a database, else "": for the commands a message
    // prints, so that they run as shown.
    std::string db_argument() const;
};

// Each subcommand registers itself and sets the callback that runs it. The callback's return
// value becomes the process exit status.
void add_boot_command(CLI::App& app, GlobalOptions& global, int& exit_status);
void add_doctor_command(CLI::App& app, GlobalOptions& global, int& exit_status);
// build, builds, gc
void add_build_command(CLI::App& app, GlobalOptions& global, int& exit_status);
void add_run_command(CLI::App& app, GlobalOptions& global, int& exit_status);
void add_bisect_command(CLI::App& app, GlobalOptions& global, int& exit_status);
void add_nightly_command(CLI::App& app, GlobalOptions& global, int& exit_status);
void add_report_command(CLI::App& app, GlobalOptions& global, int& exit_status);
void add_compare_command(CLI::App& app, GlobalOptions& global, int& exit_status);
void add_history_command(CLI::App& app, GlobalOptions& global, int& exit_status);
void add_query_command(CLI::App& app, GlobalOptions& global, int& exit_status);
void add_plan_command(CLI::App& app, GlobalOptions& global, int& exit_status);
void add_repro_command(CLI::App& app, GlobalOptions& global, int& exit_status);
void add_export_command(CLI::App& app, GlobalOptions& global, int& exit_status);
void add_runs_command(CLI::App& app, GlobalOptions& global, int& exit_status);
// completion, manpage
void add_setup_commands(CLI::App& app, GlobalOptions& global, int& exit_status);

} // namespace bb
