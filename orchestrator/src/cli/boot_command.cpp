#include "cli/commands.h"
#include "cli/option_checks.h"
#include "cli/progress_sinks.h"
#include "cli/quiet_options.h"
#include "completion/value_kind.h"
#include "experiment/experiment.h"
#include "pipeline/boot_series.h"
#include "pipeline/boot_target.h"
#include "report/boot_summary.h"
#include "util/error.h"
#include "util/shell_quote.h"
#include "util/terminal.h"
#include "util/units.h"
#include "vm/domain_xml.h"

#include <cstdio>
#include <fmt/format.h>
#include <map>
#include <memory>
#include <optional>

namespace bb {

namespace {
struct BootOptions {
    std::string kernel;
    std::string build;
    std::string arch = "arm64";
    std::string bios;
    std::string append;
    int repeats = 1;
    int warmup = 0;
    double timeout = 300;
    double silence = 60;
    int smp = 2;
    int memory = 1024;
    std::string machine;
    std::string cpu;
    std::string accel = "auto";
    bool reprobe = false;
    std::string workload;
    std::vector<std::string> programs;
    std::string initrd;
    std::string marker = "boot-done";
    bool json = false;
    bool dry_run = false;
    std::string libvirt; // a libvirt URI: boot there as a transient domain
    bool allow_uri_programs = false;
    QuietCliOptions quiet;
};

constexpr const char* k_boot_help =
    R"(Boot one kernel N times with real firmware and time each boot to its marker.

The guest runs an initramfs bootbench builds from Debian's busybox-static: /init prints
"BOOTBENCH-MARKER boot-done <uptime>", runs the --workload script if any, prints
"BOOTBENCH-MARKER end" and powers off. The boot time is the host's CLOCK_MONOTONIC from
spawning qemu to reading the marker line. Every boot is stored (argv, hashes, console).

Examples:
  bootbench boot --arch arm64 --bios QEMU_EFI.fd -n 3
  bootbench boot --kernel ~/linux/arch/arm64/boot/Image --arch arm64 --bios QEMU_EFI.fd \
                 --machine virt,acpi=off --append 'srcutree.srcu_max_nodelay_phase=1' -n 5
  bootbench boot --kernel bzImage --arch x86_64 --bios OVMF.fd --json
  bootbench boot --arch x86_64 --append rdinit=/nonexistent     # recorded as a panic
  bootbench boot --arch arm64 --dry-run                        # print the qemu argv only
  bootbench boot --arch x86_64 --bios OVMF.fd --libvirt qemu:///system -n 3
  bootbench boot --arch arm64 --libvirt qemu+ssh://root@lab1/system   # kernel uploaded once
)";

Arch parse_arch(const std::string& text) {
    if (auto arch = arch_from_string(text)) {
        return *arch;
    }
    throw Error("--arch: unknown architecture '" + text + "' (use arm64 or x86_64)");
}

AccelRequest parse_accel(const std::string& text) {
    static const std::map<std::string, AccelRequest> k_values{
        {"auto", AccelRequest::Auto}, {"kvm", AccelRequest::Kvm}, {"tcg", AccelRequest::Tcg}};
    if (auto it = k_values.find(text); it != k_values.end()) {
        return it->second;
    }
    throw Error("--accel: '" + text + "' is not one of auto, kvm, tcg");
}

void print_argv(const std::vector<std::string>& argv) {
    std::printf("%s\n", shell_command_line(argv).c_str());
}

// 3 when bootbench could not boot the guest at all (qemu missing, a host lost: infra-error);
// else 1 when the kernel under test failed (no marker, a panic, a parameter that did not take).
int exit_status_of(const std::vector<BootRecord>& boots) {
    int status = k_exit_ok;
    for (const auto& boot : boots) {
        if (boot.outcome == BootOutcome::InfraError) {
            return k_exit_runtime;
        }
        if (boot.outcome != BootOutcome::Ok || boot.params_not_applied) {
            status = k_exit_verdict;
        }
    }
    return status;
}

int run_boot(const BootOptions& options, const GlobalOptions& global) {
    BootSeriesRequest request;
    const BootKernel kernel = resolve_boot_kernel(global.db_path(), options.build, options.kernel,
                                                  parse_arch(options.arch));
    request.spec.arch = kernel.arch;
    request.spec.kernel = kernel.image;
    request.build_key = kernel.build_key;
    request.spec.cmdline = options.append;
    request.spec.smp = options.smp;
    request.spec.memory_mb = options.memory;
    request.spec.machine = options.machine;
    request.spec.cpu = options.cpu;
    if (!options.bios.empty()) {
        request.firmware = options.bios;
    }
    request.accel = parse_accel(options.accel);
    request.reprobe = options.reprobe;
    request.repeats = options.repeats;
    request.warmup = options.warmup;
    request.limits.total_timeout_s = options.timeout;
    request.limits.silence_timeout_s = options.silence;
    request.limits.timing_marker = options.marker;
    if (!options.workload.empty()) {
        request.workload_script = options.workload;
    }
    request.programs.assign(options.programs.begin(), options.programs.end());
    if (!options.initrd.empty()) {
        request.initrd = options.initrd;
    }
    request.command_line = global.command_line;
    request.quiet = with_overrides(QuietSettings{}, quiet_overrides(options.quiet));

    if (options.dry_run) {
        // Exactly what would run (firmware resolved, initramfs built), minus the KVM probe.
        QemuSpec spec =
            prepare_boot_series(request, {[](const std::string&) {}, [](const std::string&) {}})
                .spec;
        spec.accel = request.accel == AccelRequest::Kvm ? Accel::Kvm : Accel::Tcg;
        if (request.accel == AccelRequest::Auto) {
            std::fprintf(stderr, "note: --accel auto shows tcg here; a real boot may choose kvm "
                                 "after its probe\n");
        }
        if (!options.libvirt.empty()) {
            std::printf("%s", domain_xml(spec, "bootbench-dry-run").c_str());
        } else {
            print_argv(qemu_argv(spec));
        }
        return 0;
    }

    StatusLine status;
    status.set_quiet(global.quiet);
    Progress progress;
    progress.status = status_sink(status);
    progress.note = note_sink(status, global);
    Database db(global.db_path());
    if (!options.libvirt.empty()) {
        progress.status("connecting to " + options.libvirt + "...");
    }
    BootMachine machine = options.libvirt.empty()
                              ? BootMachine::local()
                              : BootMachine::libvirt(options.libvirt, options.allow_uri_programs);
    request.host = machine.host();
    request.host_libvirt_uri = machine.uri();
    const BootSeriesResult result = run_boot_series(db, machine.launcher(), request, progress);
    status.clear();

    if (options.json) {
        nlohmann::json out = boot_summary_json(result.boots);
        out["run_id"] = result.run_id;
        out["run_status"] = std::string(to_string(result.run_status));
        out["boot_ids"] = result.boot_ids;
        out["accel"] = {{"accel", std::string(to_string(result.accel.accel))},
                        {"reason", result.accel.reason}};
        out["db"] = db.path().string();
        std::printf("%s\n",
                    out.dump(2, ' ', false, nlohmann::json::error_handler_t::replace).c_str());
    } else if (!result.boots.empty() || result.stop_reason.empty()) {
        // Stopped before its first boot by a busy host: the error below is the whole story.
        std::printf("Boot: %s (%s%s, %s)\n", request.spec.kernel.filename().c_str(),
                    std::string(to_string(request.spec.arch)).c_str(),
                    request.firmware ? (", -bios " + *request.firmware).c_str() : "",
                    std::string(to_string(result.accel.accel)).c_str());
        std::printf("%s", render_boot_summary(result.boots).c_str());
        std::printf("  Stored:              run %lld in %s\n", result.run_id, db.path().c_str());
    }
    if (result.run_status == RunStatus::Interrupted) {
        return k_exit_interrupted;
    }
    if (!result.stop_reason.empty()) {
        throw RuntimeFailure(fmt::format("{}; run {} is marked failed, its {} boot(s) before are "
                                         "stored. Boot again when the host is quiet, or pass "
                                         "--quiet-on-timeout run-loaded",
                                         result.stop_reason, result.run_id, result.boots.size()));
    }
    return exit_status_of(result.boots);
}
} // namespace

void add_boot_command(CLI::App& app, GlobalOptions& global, int& exit_status) {
    auto options = std::make_shared<BootOptions>();
    CLI::App* boot = app.add_subcommand("boot", "Boot one kernel N times and time it");
    boot->footer(k_boot_help);
    boot->add_option("--kernel", options->kernel,
                     "kernel image for --arch: arm64 Image (plain or gzip'd), x86_64 bzImage, "
                     "or Debian's vmlinuz; anything else is refused before booting; default: "
                     "Debian's cloud kernel unpacked by scripts/setup.sh");
    boot->add_option("--build", options->build,
                     "boot a cached build by key or unique prefix (see bootbench builds)")
        ->type_name(k_build_value);
    boot->add_option("--arch", options->arch, "guest architecture: arm64 or x86_64")
        ->type_name(choice_of({"arm64", "x86_64"}))
        ->capture_default_str();
    boot->add_option("--bios", options->bios,
                     "firmware for -bios: QEMU_EFI.fd, OVMF.fd, or a path (default: none)");
    boot->add_option("--append", options->append,
                     "kernel command line (console= is added for the arch unless given)");
    boot->add_option("-n,--runs", options->repeats, "number of boots")->capture_default_str();
    boot->add_option("--warmup", options->warmup,
                     "boots before them, stored and never in the summary's statistics")
        ->check(integer_in(0, k_max_warmup))
        ->capture_default_str();
    boot->add_option("--timeout", options->timeout, "seconds before a boot is a timeout")
        ->check(positive_number())
        ->capture_default_str();
    boot->add_option("--silence", options->silence,
                     "seconds of console silence before a boot is declared silent")
        ->check(positive_number())
        ->capture_default_str();
    boot->add_option("--smp", options->smp, "guest vCPUs")
        ->check(positive_number())
        ->capture_default_str();
    boot->add_option("--memory", options->memory, "guest memory in MiB")
        ->check(positive_number())
        ->capture_default_str();
    boot->add_option("--machine", options->machine,
                     "qemu -M value (default: virt on arm64, q35 on x86_64)");
    boot->add_option("--cpu", options->cpu, "qemu -cpu value (default: max)");
    boot->add_option("--accel", options->accel,
                     "auto (KVM only after a probe boot succeeds), kvm or tcg")
        ->type_name(choice_of({"auto", "kvm", "tcg"}))
        ->capture_default_str();
    boot->add_flag("--reprobe", options->reprobe, "ignore the cached KVM probe verdict");
    boot->add_option("--workload", options->workload,
                     "shell script /init runs after the boot marker (its BOOTBENCH-METRIC "
                     "lines are stored)");
    boot->add_option("--program", options->programs,
                     "C source compiled statically for the guest into /bin/<name> (repeatable)");
    boot->add_option("--initrd", options->initrd,
                     "use this initramfs instead of bootbench's (it must print the marker)");
    boot->add_option("--marker", options->marker, "name of the timing marker")
        ->capture_default_str();
    boot->add_flag("--json", options->json, "print results as JSON");
    boot->add_flag("--dry-run", options->dry_run,
                   "print the qemu command line (with --libvirt: the domain XML) and exit");
    boot->add_option("--libvirt", options->libvirt,
                     "boot through libvirt at this URI (qemu:///system, qemu+ssh://HOST/system, "
                     "qemu+tcp://HOST/system) as transient domains; see docs/fleet.md");
    boot->add_flag("--allow-uri-programs", options->allow_uri_programs,
                   "accept a --libvirt URI that makes libvirt run a program of its choosing "
                   "(qemu+ext's command=, ssh's netcat= or socket=); refused otherwise");
    add_quiet_options(*boot, options->quiet);
    boot->callback([options, &global, &exit_status] { exit_status = run_boot(*options, global); });
}

} // namespace bb
