#include "cli/cli_outline.h"
#include "cli/commands.h"
#include "pipeline/failure_exit.h"
#include "store/boot_store.h"
#include "util/did_you_mean.h"
#include "util/error.h"
#include "util/interrupt.h"
#include "util/markup_escape.h"
#include "util/paths.h"
#include "util/shell_quote.h"

#include <cstdio>
#include <fmt/format.h>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>

namespace bb {

std::filesystem::path GlobalOptions::db_path() const {
    return db.empty() ? default_db_path() : std::filesystem::path(db);
}

std::string GlobalOptions::db_argument() const {
    return db.empty() ? "" : "--db " + shell_quote(db) + " ";
}

} // namespace bb

namespace {
// The first word that is neither an option nor a global option's value: the command.
std::optional<std::string> command_word(int argc, char** argv) {
    for (int i = 1; i < argc; ++i) {
        const std::string_view word = argv[i];
        if (word == "--db") {
            ++i; // its value
        } else if (word == "--") {
            return std::nullopt;
        } else if (!word.empty() && word.front() != '-') {
            return std::string(word);
        }
    }
    return std::nullopt;
}

bool is_command(const CLI::App& app, const std::string& word) {
    for (const auto* command : app.get_subcommands([](const CLI::App*) { return true; })) {
        if (command->check_name(word)) {
            return true;
        }
    }
    return false;
}

int unknown_command(const CLI::App& app, const std::string& word) {
    std::vector<std::string> names;
    std::string commands;
    for (const auto& command : bb::outline_commands(app)) { // hidden ones (`__complete`) left out
        names.push_back(command.name);
        commands += (commands.empty() ? "" : ", ") + command.name;
    }
    std::fprintf(stderr, "bootbench: error: unknown command '%s'%s (commands: %s)\n", word.c_str(),
                 bb::did_you_mean_note(word, names).c_str(), commands.c_str());
    return bb::k_exit_usage;
}
// The options `command` takes (and the global ones), as typed: "--format", "-o".
std::vector<std::string> option_names(const CLI::App& app, const CLI::App& command) {
    std::vector<std::string> names;
    for (const CLI::App* owner : {&command, &app}) {
        for (const CLI::Option* option : owner->get_options()) {
            for (const auto& name : option->get_lnames()) {
                names.push_back("--" + name);
            }
            for (const auto& name : option->get_snames()) {
                names.push_back("-" + name);
            }
        }
    }
    return names;
}

// `bootbench report --formt md`: CLI11 says only that "--formt" was not expected. Name the
// command and the nearest option it takes; nullopt for extras that are not options.
std::optional<int> unknown_option(const CLI::App& app, const CLI::ExtrasError& error) {
    const std::string what = error.what();
    const auto colon = what.rfind(": ");
    const auto commands = app.get_subcommands();
    if (colon == std::string::npos || commands.empty()) {
        return std::nullopt;
    }
    // "The following arguments were not expected: 3 --runs": the first one that is an option.
    std::istringstream extras(what.substr(colon + 2));
    std::string word;
    while (extras >> word && !word.starts_with("-")) {
    }
    if (!word.starts_with("-")) {
        return std::nullopt;
    }
    word = word.substr(0, word.find('='));
    const CLI::App& command = *commands.back();
    std::fprintf(stderr,
                 "bootbench: error: unknown option %s for `bootbench %s`%s\n"
                 "Run `bootbench %s --help` for its options.\n",
                 bb::terminal_text(word).c_str(), command.get_name().c_str(),
                 bb::did_you_mean_note(word, option_names(app, command)).c_str(),
                 command.get_name().c_str());
    return bb::k_exit_usage;
}
} // namespace

int main(int argc, char** argv) {
    bb::GlobalOptions global;
    for (int i = 0; i < argc; ++i) {
        global.command_line += (i ? " " : "") + std::string(argv[i]);
    }
    CLI::App app{"bootbench: what a kernel patch or tunable does to boot time.\n"
                 "Builds kernels, boots them in qemu with real firmware, times each boot to a\n"
                 "console marker and keeps every sample in SQLite.\n\n"
                 "  bootbench doctor                          what works on this machine\n"
                 "  bootbench boot --arch arm64 --bios QEMU_EFI.fd -n 3\n"
                 "                                            boot a kernel 3 times, summarize\n"
                 "  bootbench build --arch arm64 --hz 250     build (or reuse) a kernel\n"
                 "  bootbench run configs/example.yaml        the matrix: build, boot, store\n"
                 "  bootbench repro 42 --run                  replay one stored boot\n\n"
                 "Exit status (every command): 0 done; 1 the kernel under test got slower, "
                 "regressed\n"
                 "or failed to boot (compare, nightly, boot, run), or bisect named no patch;\n"
                 "2 usage or configuration error; "
                 "3 the environment failed (a kernel build, a missing tool or\n"
                 "package, a lost host, a database that stayed locked); 70 a bug in bootbench\n"
                 "(an internal error: please report it); 130 interrupted.\n",
                 "bootbench"};
    app.set_version_flag("--version", bb::tool_version());
    app.add_option("--db", global.db,
                   "results database (default: $BOOTBENCH_DB, else db/bootbench.sqlite in the "
                   "source tree)");
    app.add_flag("-q,--quiet", global.quiet, "no progress output");
    app.add_flag("-v,--verbose", global.verbose, "more detail");
    app.require_subcommand(1);
    app.fallthrough(); // global options may follow the subcommand: `bootbench boot ... --db x`
    int exit_status = 0;
    bb::add_boot_command(app, global, exit_status);
    bb::add_doctor_command(app, global, exit_status);
    bb::add_build_command(app, global, exit_status);
    bb::add_run_command(app, global, exit_status);
    bb::add_bisect_command(app, global, exit_status);
    bb::add_nightly_command(app, global, exit_status);
    bb::add_report_command(app, global, exit_status);
    bb::add_compare_command(app, global, exit_status);
    bb::add_history_command(app, global, exit_status);
    bb::add_query_command(app, global, exit_status);
    bb::add_plan_command(app, global, exit_status);
    bb::add_repro_command(app, global, exit_status);
    bb::add_export_command(app, global, exit_status);
    bb::add_runs_command(app, global, exit_status);
    bb::add_setup_commands(app, global, exit_status);
    bb::install_interrupt_handlers();
    // Every usage error reads like bb::Error's, whichever part of CLI11 found it.
    app.failure_message([](const CLI::App*, const CLI::Error& e) {
        return std::string("bootbench: error: ") + e.what() +
               "\nRun with --help for more information.\n";
    });
    // `bootbench frobnicate --help` printed the main help and exited 0: a script probing for a
    // command was told it exists.
    if (const auto word = command_word(argc, argv); word && !is_command(app, *word)) {
        return unknown_command(app, *word);
    }
    try {
        app.parse(argc, argv);
    } catch (const CLI::RequiredError& e) {
        // `bootbench frobnicate`: CLI11 would only say that a subcommand is required.
        if (app.get_subcommands().empty() && !app.remaining().empty()) {
            return unknown_command(app, app.remaining().front());
        }
        return app.exit(e) == 0 ? bb::k_exit_ok : bb::k_exit_usage;
    } catch (const CLI::ExtrasError& e) {
        if (const auto status = unknown_option(app, e)) {
            return *status;
        }
        return app.exit(e) == 0 ? bb::k_exit_ok : bb::k_exit_usage;
    } catch (const CLI::ParseError& e) {
        // One status for every usage error, like bb::Error's: CLI11's own codes (105-110)
        // mean nothing to a script; --help and --version stay 0.
        return app.exit(e) == 0 ? bb::k_exit_ok : bb::k_exit_usage;
    } catch (...) {
        const bb::FailureExit failed =
            bb::failure_exit(std::current_exception(), global.db_path().string());
        // A message may echo input (a file's value, a stored name): shown, never obeyed.
        std::fprintf(stderr, "%s\n", bb::terminal_output(failed.message).c_str());
        return failed.status;
    }
    return exit_status;
}
