#include "artifacts/build_gc.h"
#include "artifacts/build_request.h"
#include "artifacts/experiment_kernels.h"
#include "artifacts/kernel_build.h"
#include "cli/commands.h"
#include "cli/progress_sinks.h"
#include "completion/value_kind.h"
#include "experiment/experiment_parser.h"
#include "experiment/matrix.h"
#include "store/build_store.h"
#include "store/patch_labels.h"
#include "util/error.h"
#include "util/markup_escape.h"
#include "util/paths.h"
#include "util/terminal.h"
#include "util/units.h"

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <fmt/format.h>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>

namespace bb {

namespace fs = std::filesystem;

namespace {
struct BuildOptions {
    std::string file;              // an experiment: build every kernel it boots
    std::vector<std::string> only; // with a file: the kernels of these cells only
    std::string arch = "arm64";
    std::string source = default_source_text();
    std::vector<std::string> patches;
    std::string base = "tinyconfig";
    std::vector<std::string> fragments;
    bool no_default_fragment = false;
    int hz = 0;
    std::string preempt;
    std::vector<std::string> set;
    int jobs = 0;
    bool explain = false;
    bool json = false;
};

constexpr const char* k_build_help = R"(Build a kernel exactly as asked, once.

Source (debian:linux-source-6.12 by default, a local tree, or git:REPO@REF) + patch series
(applied in order to a private copy; a patch that does not apply names the file and hunk) +
config (base, then the arch's minimal qemu fragment unless --no-default-fragment, then each
--fragment, then --hz and --preempt as the Kconfig choices they are, then --set) →
olddefconfig → every requested option verified → make in an O= directory with ccache.
The build key hashes the source identity, each patch's change (its files and hunks: not its
message, From line or signature, so a re-exported series is the same kernel), the final
.config, the toolchain's --version and the target; a cache hit runs no make at all. Prints
the key.

With an experiment file instead of options, builds every kernel that experiment boots
(each variant × hz × fragment set once, as `bootbench run` would; for nested runs, the L1
kernels) and boots nothing: a nightly job pre-builds with it, and the run that follows finds
every kernel cached.

Examples:
  bootbench build configs/srcu-phase-table.yaml
  bootbench build configs/srcu-host.yaml --only hz=100,1000 --only variant=before-full,fixed-full
  bootbench build --arch arm64 --hz 250
  bootbench build --arch x86_64 --hz 100 --fragment rcuscale --set CONFIG_NR_CPUS=8
  bootbench build --arch arm64 --patch kernels/patches/srcu/before/0001-*.patch --explain
  bootbench build --source ~/linux --base defconfig --arch arm64
  bootbench build --source git:$HOME/linux@v6.12 --arch x86_64
  bootbench boot --build 1a2b3c --bios QEMU_EFI.fd --machine virt,acpi=off -n 5
)";

int run_build(const BuildOptions& options, const GlobalOptions& global) {
    const auto arch = arch_from_string(options.arch);
    if (!arch) {
        throw Error("--arch: unknown architecture '" + options.arch + "' (use arm64 or x86_64)");
    }
    KernelBuildSpec spec;
    spec.arch = *arch;
    spec.source = options.source;
    spec.patches.assign(options.patches.begin(), options.patches.end());
    spec.base = options.base;
    spec.default_fragment = !options.no_default_fragment;
    spec.fragments = options.fragments;
    if (options.hz != 0) {
        spec.hz = options.hz;
    }
    if (!options.preempt.empty()) {
        spec.preempt = options.preempt;
    }
    spec.set = options.set;
    const BuildRequest request = build_request(spec, options.jobs);

    StatusLine status;
    status.set_quiet(global.quiet);
    Progress progress;
    progress.status = status_sink(status);
    progress.note = note_sink(status, global);
    if (options.explain) {
        KernelBuilder builder(cache_dir(), progress);
        const BuildResult result = builder.explain(request);
        status.clear();
        std::printf("%s%s\n", result.explain.c_str(),
                    result.cache_hit ? "cache: hit (a build would run no make)"
                                     : "cache: miss (a build would run make)");
        return 0;
    }
    Database db(global.db_path());
    const BuildResult result = build_and_record(db, request, progress);
    status.clear();
    if (options.json) {
        std::printf("%s\n", nlohmann::json{{"key", result.key},
                                           {"image", result.image.string()},
                                           {"cache_hit", result.cache_hit},
                                           {"seconds", result.seconds},
                                           {"source", result.source_identity},
                                           {"patches", result.patch_names}}
                                .dump(2)
                                .c_str());
    } else {
        std::printf("%s %s (%s, %s)\n  image: %s\n", result.cache_hit ? "cached" : "built",
                    result.key.c_str(), to_string(request.arch).data(),
                    format_seconds(result.seconds).c_str(), result.image.c_str());
    }
    return 0;
}

// The options that describe one kernel: with an experiment file, the file describes them all.
constexpr const char* k_kernel_options[] = {
    "--arch", "--source",  "--patch", "--base",   "--fragment", "--no-default-fragment",
    "--hz",   "--preempt", "--set",   "--explain"};

int build_experiment(const BuildOptions& options, const GlobalOptions& global) {
    const Experiment experiment = load_experiment(options.file);
    const std::vector<Cell> cells = restrict_cells(experiment, expand_matrix(experiment),
                                                   parse_axis_restrictions(options.only));
    if (cells.empty()) {
        throw Error(experiment.file_name + ": --only leaves no cell to build");
    }
    StatusLine status;
    status.set_quiet(global.quiet);
    Database db(global.db_path());
    const ExperimentKernels kernels = build_experiment_kernels(
        db, cells, options.jobs, {status_sink(status), note_sink(status, global)});
    status.clear();
    if (kernels.interrupted) {
        throw Interrupted("interrupted while building; the kernels built so far are cached");
    }
    nlohmann::json out = nlohmann::json::array();
    for (const auto& cell : cells) {
        const BuiltKernel& kernel = kernels.by_build_id.at(cell.build_id);
        if (std::any_of(out.begin(), out.end(),
                        [&](const nlohmann::json& row) { return row["key"] == kernel.key; })) {
            continue;
        }
        out.push_back({{"variant", cell.variant},
                       {"hz", cell.build.hz ? nlohmann::json(*cell.build.hz) : nullptr},
                       {"key", kernel.key},
                       {"image", kernel.image.string()},
                       {"cache_hit", kernel.cache_hit}});
    }
    if (options.json) {
        // Invalid UTF-8 in a stored string becomes U+FFFD, not an exception (exit 70).
        std::printf("%s\n",
                    out.dump(2, ' ', false, nlohmann::json::error_handler_t::replace).c_str());
        return 0;
    }
    // Two variants that differ only in their command line share one kernel: count kernels.
    const auto cached = std::count_if(out.begin(), out.end(), [](const nlohmann::json& row) {
        return row["cache_hit"].get<bool>();
    });
    std::printf("%s: %zu kernel(s), %td cached, %td built\n", experiment.name.c_str(), out.size(),
                cached, static_cast<std::ptrdiff_t>(out.size()) - cached);
    for (const auto& row : out) {
        std::printf("  %s  %s%s\n", row["key"].get<std::string>().substr(0, 12).c_str(),
                    row["variant"].get<std::string>().c_str(),
                    row["hz"].is_null() ? ""
                                        : fmt::format(", HZ={}", row["hz"].get<int>()).c_str());
    }
    return 0;
}

std::string age_of(const std::string& iso) {
    std::tm tm{};
    if (strptime(iso.c_str(), "%Y-%m-%dT%H:%M:%S", &tm) == nullptr) {
        return "?";
    }
    const double seconds = std::difftime(std::time(nullptr), timegm(&tm));
    if (seconds < 3600) {
        return fmt::format("{:.0f} min", seconds / 60);
    }
    if (seconds < 86400 * 2) {
        return fmt::format("{:.0f} h", seconds / 3600);
    }
    return fmt::format("{:.0f} d", seconds / 86400);
}

// The bytes a build's directory holds, when it lies inside the build cache: a row is input, and
// one naming /usr/share/doc (or /) would have its walk measure the whole tree.
std::optional<unsigned long long> directory_bytes(const fs::path& dir) {
    std::error_code ec;
    const fs::path builds = fs::weakly_canonical(cache_dir() / "builds", ec);
    const fs::path resolved = fs::weakly_canonical(dir, ec);
    const auto [cache_end, dir_at] =
        std::mismatch(builds.begin(), builds.end(), resolved.begin(), resolved.end());
    if (ec || cache_end != builds.end() || dir_at == resolved.end()) {
        return std::nullopt;
    }
    unsigned long long total = 0;
    for (auto it = fs::recursive_directory_iterator(dir, ec);
         it != fs::recursive_directory_iterator(); it.increment(ec)) {
        if (it->is_regular_file(ec)) {
            total += it->file_size(ec);
        }
    }
    return total;
}

// A build row's patch labels, or null for a damaged list: shown as damaged, never a crash.
nlohmann::json patches_or_null(const BuildRow& row) {
    const auto labels = read_patch_labels(row.patches_json);
    return labels ? nlohmann::json(*labels) : nlohmann::json(nullptr);
}

// Finished builds in the cache that this database has no row for.
std::size_t builds_not_in(const std::vector<BuildRow>& rows) {
    std::size_t count = 0;
    for (const auto& dir : cached_build_dirs()) {
        const std::string key = dir.filename().string();
        count += std::none_of(rows.begin(), rows.end(),
                              [&](const BuildRow& row) { return row.key == key; })
                     ? 1
                     : 0;
    }
    return count;
}

} // namespace

namespace {

// The builds the database knows, opened read-only: listing them never migrates, switches or
// creates the file (`builds` on a shipped database rewrote it, and on a path that did not exist
// created one). A database that does not exist knows none.
std::vector<BuildRow> known_builds(const fs::path& db_path) {
    std::error_code missing;
    if (!fs::exists(db_path, missing)) {
        return {};
    }
    Database db(db_path, Database::Mode::ReadOnly);
    return BuildStore(db).list();
}

// `bootbench builds`: the builds this database knows, and how many more the cache holds.
void list_builds(const GlobalOptions& global, bool as_json) {
    const auto rows = known_builds(global.db_path());
    if (as_json) {
        nlohmann::json out = nlohmann::json::array();
        for (const auto& row : rows) {
            out.push_back({{"key", row.key},
                           {"arch", row.arch},
                           {"hz", row.hz ? nlohmann::json(*row.hz) : nullptr},
                           {"source", row.source_identity},
                           {"patches", patches_or_null(row)},
                           {"image", row.artifact_dir},
                           {"image_bytes", row.image_bytes},
                           {"build_seconds", row.build_seconds},
                           {"created_at", row.created_at},
                           {"last_used_at", row.last_used_at}});
        }
        std::printf("%s\n", out.dump(2).c_str());
        return;
    }
    std::printf("%-12s %-7s %-5s %-9s %-10s %-8s %-8s %s\n", "KEY", "ARCH", "HZ", "IMAGE",
                "ON DISK", "AGE", "USED", "SOURCE + PATCHES");
    for (const auto& row : rows) {
        const auto patches = read_patch_labels(row.patches_json);
        const auto on_disk = directory_bytes(row.artifact_dir);
        const std::string line =
            fmt::format("{:<12} {:<7} {:<5} {:<9} {:<10} {:<8} {:<8} {}{}\n", row.key.substr(0, 12),
                        row.arch, row.hz ? std::to_string(*row.hz) : "-",
                        format_bytes(static_cast<double>(row.image_bytes)),
                        on_disk ? format_bytes(static_cast<double>(*on_disk)) : "(not cache)",
                        age_of(row.created_at), age_of(row.last_used_at), row.source_identity,
                        !patches           ? " + (damaged patch list)"
                        : patches->empty() ? ""
                                           : fmt::format(" + {} patch(es)", patches->size()));
        std::fputs(terminal_output(line).c_str(), stdout); // stored strings: shown, not obeyed
    }
    const std::size_t elsewhere = builds_not_in(rows);
    if (rows.empty() && elsewhere == 0) {
        std::printf("(no builds yet: bootbench build --help)\n");
    }
    if (elsewhere > 0) {
        std::printf("(%zu more in %s, built for other databases: `bootbench boot --build "
                    "KEY` or a run that needs one imports it)\n",
                    elsewhere, (cache_dir() / "builds").string().c_str());
    }
}

void add_build_subcommand(CLI::App& app, GlobalOptions& global, int& exit_status) {
    auto options = std::make_shared<BuildOptions>();
    CLI::App* build = app.add_subcommand("build", "Build a kernel (cache-aware)");
    build->footer(k_build_help);
    build->add_option("--arch", options->arch, "arm64 or x86_64")
        ->type_name(choice_of({"arm64", "x86_64"}))
        ->capture_default_str();
    build
        ->add_option("--source", options->source,
                     "debian:linux-source-X.Y, a local tree, or git:REPO@REF")
        ->capture_default_str();
    build->add_option("--patch", options->patches, "patch or mbox file (repeatable, in order)");
    build->add_option("--base", options->base, "tinyconfig, defconfig, allnoconfig or a .config")
        ->capture_default_str();
    build->add_option("--fragment", options->fragments,
                      "kernels/fragments/NAME.config or a path (repeatable)");
    build->add_flag("--no-default-fragment", options->no_default_fragment,
                    "do not add the arch's minimal qemu fragment");
    build->add_option("--hz", options->hz, "CONFIG_HZ: 100, 250, 300 or 1000");
    build->add_option("--preempt", options->preempt, "none, voluntary or full")
        ->type_name(choice_of({"none", "voluntary", "full"}));
    build->add_option("--set", options->set, "CONFIG_X=value override (repeatable)");
    build->add_option("-j,--jobs", options->jobs, "make -j (default: host CPUs)");
    build->add_flag("--explain", options->explain,
                    "show exactly what the config and build keys hash, and hit or miss");
    build->add_flag("--json", options->json, "print the result as JSON");
    build->add_option("file", options->file,
                      "experiment YAML file: build every kernel it boots (instead of the "
                      "options above)");
    build->add_option("--only", options->only,
                      "with FILE, AXIS=V1,V2: only the kernels of the cells with these values "
                      "(repeatable), as `run --only` boots them");
    build->callback([options, build, &global, &exit_status] {
        if (options->file.empty()) {
            if (!options->only.empty()) {
                throw Error("--only goes with an experiment file: it picks that file's cells");
            }
            exit_status = run_build(*options, global);
            return;
        }
        for (const char* option : k_kernel_options) {
            if (build->count(option) > 0) {
                throw Error(fmt::format("{} does not go with an experiment file: {} says "
                                        "which kernels to build",
                                        option, options->file));
            }
        }
        exit_status = build_experiment(*options, global);
    });
}

void add_builds_subcommand(CLI::App& app, GlobalOptions& global, int& exit_status) {
    CLI::App* builds = app.add_subcommand("builds", "List cached kernel builds");
    builds->footer("Examples:\n  bootbench builds\n  bootbench builds --json\n");
    auto json = std::make_shared<bool>(false);
    builds->add_flag("--json", *json, "print as JSON");
    builds->callback([json, &global, &exit_status] {
        list_builds(global, *json);
        exit_status = 0;
    });
}

void add_gc_subcommand(CLI::App& app, GlobalOptions& global, int& exit_status) {
    CLI::App* gc = app.add_subcommand("gc", "Remove cached builds not used recently");
    gc->footer(
        "Removes the artifacts and the O= build directory of builds unused for --days, then\n"
        "O= directories no build names (unused for --days) and private source trees left\n"
        "without any (under $CACHE/trees). Only paths inside the cache are removed. Waits\n"
        "for a kernel build in progress.\n\n"
        "Examples:\n  bootbench gc --days 30 --dry-run\n  bootbench gc --days 0\n");
    auto days = std::make_shared<double>(30);
    auto dry_run = std::make_shared<bool>(false);
    gc->add_option("--days", *days, "remove builds unused for this many days")
        ->capture_default_str();
    gc->add_flag("--dry-run", *dry_run, "only list what would be removed");
    gc->callback([days, dry_run, &global, &exit_status] {
        Database db(global.db_path());
        const GcSummary summary = collect_build_garbage(
            db, cache_dir(), GcOptions{*days, *dry_run},
            [](const std::string& line) { std::printf("%s\n", line.c_str()); },
            [](const std::string& line) { std::fprintf(stderr, "%s\n", line.c_str()); });
        std::printf("%d build(s), %d orphaned build director%s, %d source tree(s): %s%s\n",
                    summary.builds, summary.build_dirs, summary.build_dirs == 1 ? "y" : "ies",
                    summary.trees, format_bytes(static_cast<double>(summary.bytes)).c_str(),
                    *dry_run ? " would be freed" : " freed");
        exit_status = 0;
    });
}

} // namespace

void add_build_command(CLI::App& app, GlobalOptions& global, int& exit_status) {
    add_build_subcommand(app, global, exit_status);
    add_builds_subcommand(app, global, exit_status);
    add_gc_subcommand(app, global, exit_status);
}

} // namespace bb
