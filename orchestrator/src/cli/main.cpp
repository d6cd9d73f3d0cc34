#include "cli/commands.h"
#include "store/boot_store.h"
#include "util/error.h"
#include "util/interrupt.h"
#include "util/paths.h"

#include <SQLiteCpp/SQLiteCpp.h>
#include <cstdio>
#include <fmt/format.h>

namespace bb {

std::filesystem::path GlobalOptions::db_path() const {
    return db.empty() ? default_db_path() : std::filesystem::path(db);
}

} // namespace bb

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
                 "package, a lost host, a database that stayed locked); 130 interrupted.\n",
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
    bb::add_query_command(app, global, exit_status);
    bb::add_plan_command(app, global, exit_status);
    bb::add_repro_command(app, global, exit_status);
    bb::add_export_command(app, global, exit_status);
    bb::install_interrupt_handlers();
    try {
        app.parse(argc, argv);
    } catch (const CLI::RequiredError& e) {
        // `bootbench frobnicate`: CLI11 would only say that a subcommand is required.
        if (app.get_subcommands().empty() && !app.remaining().empty()) {
            std::string commands;
            for (const auto* command : app.get_subcommands([](CLI::App*) { return true; })) {
                commands += (commands.empty() ? "" : ", ") + command->get_name();
            }
            std::fprintf(stderr, "bootbench: error: unknown command '%s' (commands: %s)\n",
                         app.remaining().front().c_str(), commands.c_str());
            return bb::k_exit_usage;
        }
        return app.exit(e) == 0 ? bb::k_exit_ok : bb::k_exit_usage;
    } catch (const CLI::ParseError& e) {
        // One status for every usage error, like bb::Error's: CLI11's own codes (105-110)
        // mean nothing to a script; --help and --version stay 0.
        return app.exit(e) == 0 ? bb::k_exit_ok : bb::k_exit_usage;
    } catch (const bb::RuntimeFailure& e) { // before Error: both are Errors
        std::fprintf(stderr, "bootbench: error: %s\n", e.what());
        return bb::k_exit_runtime;
    } catch (const bb::Interrupted& e) {
        std::fprintf(stderr, "bootbench: interrupted: %s\n", e.what());
        return bb::k_exit_interrupted;
    } catch (const bb::Error& e) {
        std::fprintf(stderr, "bootbench: error: %s\n", e.what());
        return bb::k_exit_usage;
    } catch (const SQLite::Exception& e) {
        std::fprintf(stderr, "bootbench: database error: %s\n", e.what());
        return bb::k_exit_usage;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bootbench: internal error: %s (please report this)\n", e.what());
        return bb::k_exit_runtime;
    }
    return exit_status;
}
