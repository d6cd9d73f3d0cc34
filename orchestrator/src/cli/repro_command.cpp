#include "cli/commands.h"
#include "report/render_support.h"
#include "repro/repro_plan.h"
#include "repro/repro_script.h"
#include "store/boot_store.h"
#include "store/database.h"
#include "util/error.h"
#include "util/output_guard.h"
#include "util/paths.h"
#include "util/streaming_command.h"

#include <cstdio>
#include <fmt/format.h>
#include <memory>
#include <nlohmann/json.hpp>
#include <sys/stat.h>
#include <unistd.h>

namespace bb {

namespace {

constexpr const char* k_repro_help =
    R"(Writes a bash script that replays one stored boot: it checks every input (kernel
image, initramfs, firmware) against the sha256 the boot recorded, can build the
kernel again from Debian's source package with the recorded patches and final
.config (after checking the toolchain's versions), runs the recorded qemu command
line and prints the new time to the boot's marker beside the stored one. The
script needs neither bootbench nor the database: send it to whoever should see the
boot. Its own --help lists its options and environment overrides.

A boot that ran through libvirt cannot be replayed (its command line is libvirt's).
The initramfs is checked by hash, not rebuilt: it is bootbench's own product, kept in
the image cache by content; REPRO_INITRD names another copy.

Exit status: 0 written (with --run: the marker came); 1 the replayed boot did not
reach its marker; 2 no such boot, or a usage error; 3 an input that does not match
its recorded hash, or a rebuild step that failed; 70 a bug in bootbench.

Examples:
  bootbench repro 42                          # the script, on stdout
  bootbench repro 42 -o boot42.sh             # written to a file (executable)
  bootbench repro 42 --run                    # replay it now
  bootbench repro 42 --run --rebuild-kernel   # rebuild the kernel from source, then replay
  bootbench repro 42 --run --rebuild-kernel --check-only
  bootbench query "select id, cell_key, boot_seconds from v_samples where run_id = 3"
)";

struct ReproOptions {
    long long boot_id = 0;
    std::string output;
    bool run = false;
    bool rebuild_kernel = false;
    bool check_only = false;
    bool json = false;
    bool force = false; // replace an existing -o file
};

nlohmann::json optional_json(const std::optional<std::string>& value) {
    return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

// What the script would replay, as data: the boot, each input with its recorded hash, and the
// kernel's recipe (the .config by its hash; the script carries the text).
nlohmann::json plan_json(const ReproPlan& plan) {
    const BootRecord& record = plan.boot.record;
    nlohmann::json inputs = nlohmann::json::array();
    for (const auto& input : plan.inputs) {
        inputs.push_back({{"role", input.role}, {"path", input.path}, {"sha256", input.sha256}});
    }
    nlohmann::json kernel = nullptr;
    if (plan.kernel) {
        const KernelRecipe& recipe = *plan.kernel;
        nlohmann::json patches = nlohmann::json::array();
        for (const auto& patch : recipe.patches) {
            patches.push_back({{"name", patch.name}, {"sha256", patch.sha256}});
        }
        kernel = {
            {"build_key", recipe.build_key},           {"arch", recipe.arch},
            {"source_package", recipe.source_package}, {"source_version", recipe.source_version},
            {"toolchain", recipe.toolchain},           {"patches", patches},
            {"config_sha256", recipe.config_sha256},   {"target", recipe.target}};
    }
    return {{"boot_id", plan.boot.id},
            {"experiment", plan.boot.experiment},
            {"database", plan.database},
            {"arch", record.arch},
            {"argv", record.argv},
            {"marker", plan.marker},
            {"start_marker", plan.start_marker},
            {"boot_seconds",
             record.boot_seconds ? nlohmann::json(*record.boot_seconds) : nlohmann::json(nullptr)},
            {"build_key", optional_json(record.build_key)},
            {"inputs", inputs},
            {"kernel", kernel},
            {"no_kernel_recipe", plan.no_recipe_reason}};
}

int run_script(const std::filesystem::path& script, const ReproOptions& options) {
    StreamingCommand command;
    command.argv = {"bash", script.string()};
    if (options.rebuild_kernel) {
        command.argv.push_back("--rebuild-kernel");
    }
    if (options.check_only) {
        command.argv.push_back("--check-only");
    }
    const auto result = run_streaming(command, [](std::string_view line) {
        std::printf("%.*s\n", static_cast<int>(line.size()), line.data());
        std::fflush(stdout);
    });
    if (result.interrupted) {
        return 130;
    }
    return result.exit_code;
}

int repro(const ReproOptions& options, const GlobalOptions& global) {
    if ((options.rebuild_kernel || options.check_only) && !options.run) {
        throw Error("--rebuild-kernel and --check-only are the script's options: give them with "
                    "--run, or pass them to the written script");
    }
    if (options.check_only && !options.rebuild_kernel) {
        throw Error("--check-only goes with --rebuild-kernel");
    }
    if (options.json && (options.run || !options.output.empty())) {
        throw Error("--json prints the replay's plan; it goes without --run and --output");
    }
    if (!options.output.empty()) {
        check_command_output(options.output, global.db_path(), options.force);
    }
    // Read-only: a build this database has not seen is read from the cache, not imported.
    Database db(global.db_path(), Database::Mode::ReadOnly);
    const ReproPlan plan = make_repro_plan(db, options.boot_id);
    if (options.json) {
        std::fputs(json_document(plan_json(plan)).c_str(), stdout);
        return k_exit_ok;
    }
    const std::string script = render_repro_script(plan, tool_version());
    if (options.output.empty() && !options.run) {
        std::fputs(script.c_str(), stdout);
        return 0;
    }
    const std::filesystem::path path =
        options.output.empty()
            ? std::filesystem::temp_directory_path() /
                  fmt::format("bootbench-repro-{}.{}.sh", options.boot_id, getpid())
            : std::filesystem::path(options.output);
    write_file_atomically(path, script);
    chmod(path.c_str(), 0755);
    if (!options.run) {
        std::fprintf(stderr, "wrote %s (bash %s --help)\n", path.c_str(), path.c_str());
        return 0;
    }
    const int status = run_script(path, options);
    if (options.output.empty()) {
        std::filesystem::remove(path);
    }
    return status;
}

} // namespace

void add_repro_command(CLI::App& app, GlobalOptions& global, int& exit_status) {
    auto options = std::make_shared<ReproOptions>();
    CLI::App* cmd = app.add_subcommand(
        "repro", "Write (or run) a script that rebuilds and replays one stored boot");
    cmd->footer(k_repro_help);
    cmd->add_option("BOOT_ID", options->boot_id, "the boot's id (boots.id, v_samples.id)")
        ->required();
    cmd->add_option("-o,--output", options->output, "write the script to FILE (mode 0755)");
    cmd->add_flag("--force", options->force,
                  "replace the -o file when it exists (never the database)");
    cmd->add_flag("--run", options->run, "run the script now and print what it prints");
    cmd->add_flag("--rebuild-kernel", options->rebuild_kernel,
                  "with --run: build the kernel again from source first");
    cmd->add_flag("--check-only", options->check_only,
                  "with --rebuild-kernel: check source, toolchain, patches and .config; no make");
    cmd->add_flag("--json", options->json,
                  "print what the script would replay (boot, inputs and their hashes, the "
                  "kernel's recipe) as JSON");
    cmd->callback([options, &global, &exit_status] { exit_status = repro(*options, global); });
}

} // namespace bb
