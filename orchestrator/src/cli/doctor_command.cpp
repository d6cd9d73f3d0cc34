#include "artifacts/default_kernel.h"
#include "artifacts/guest_image.h"
#include "cli/commands.h"
#include "guest/busybox.h"
#include "pipeline/accel_selection.h"
#include "report/render_support.h"
#include "store/boot_store.h"
#include "store/database.h"
#include "store/migrations.h"
#include "util/checklist.h"
#include "util/error.h"
#include "util/host_conditions.h"
#include "util/host_facts.h"
#include "util/paths.h"
#include "util/run_command.h"
#include "util/units.h"
#include "vm/firmware.h"
#include "vm/qemu_launcher.h"

#include <cstdio>
#include <fmt/format.h>
#include <memory>
#include <nlohmann/json.hpp>

namespace bb {

namespace {
constexpr const char* k_doctor_help =
    R"(Reports what works on this machine, with a verdict per line:
qemu binaries, firmware (resolved path and hash), the KVM verdict for each guest arch (from the
probe cache; --probe runs a real probe boot now), compilers and cross compilers, busybox per
arch, the host conditions that change timings (governor, boost, SMT, THP, KSM, isolated CPUs:
each with what would make it quieter; every boot stores them), the cache directory and the
database.

"ok" works; "--" is a problem: a piece bootbench needs is missing (exit status 3); "note" is an
optional piece that is absent, e.g. KVM on a machine where guests run under TCG (exit status 0).

Examples:
  bootbench doctor
  bootbench doctor --probe      # boot the default x86_64 kernel under KVM to test it (<= 10 s)
)";

// The checklist, printed line by line as the checks run (a probe boot takes seconds), or kept
// for one JSON document at the end.
struct DoctorReport {
    Checklist list;
    bool json = false;
};

void section(DoctorReport& report, const char* name) {
    report.list.begin_section(name);
    if (!report.json) {
        std::printf("\n%s\n", name);
    }
}

void line(DoctorReport& report, bool ok, const std::string& what, const std::string& detail,
          Need need = Need::Required) {
    const std::string text = report.list.add(ok, need, what, detail);
    if (!report.json) {
        std::fputs(text.c_str(), stdout);
    }
}

nlohmann::json doctor_json(const DoctorReport& report, const HostFacts& host) {
    nlohmann::json checks = nlohmann::json::array();
    for (const auto& entry : report.list.entries()) {
        checks.push_back({{"section", entry.section},
                          {"status", entry.status},
                          {"what", entry.what},
                          {"detail", entry.detail}});
    }
    return {{"tool_version", tool_version()},
            {"host",
             {{"hostname", host.hostname},
              {"cpu_model", host.cpu_model},
              {"cpus", host.cpus},
              {"memory_bytes", host.memory_bytes},
              {"kernel", host.kernel_release}}},
            {"checks", checks},
            {"problems", report.list.problems()},
            {"notes", report.list.notes()},
            {"summary", report.list.summary()}};
}

void check_program(DoctorReport& list, const std::string& label, const std::string& program,
                   Need need = Need::Required) {
    const std::string version = version_of(program);
    line(list, !version.empty(), label, version.empty() ? program + " not found" : version, need);
}

void check_accel(DoctorReport& list, Arch arch, const HostFacts& host, bool probe,
                 const GlobalOptions& global) {
    const std::string impossible = kvm_impossible_reason(arch, host);
    const std::string label = fmt::format("accel {}", to_string(arch));
    if (!impossible.empty()) {
        line(list, true, label, "tcg: " + impossible);
        return;
    }
    Database db(global.db_path());
    BootStore store(db);
    const long long host_id = store.ensure_host(host);
    if (!probe) {
        const auto cached = store.latest_accel_probe(host_id, std::string(to_string(arch)),
                                                     version_of(qemu_binary(arch)));
        if (!cached) {
            line(list, true, label, "not probed yet (bootbench doctor --probe, or the first boot)");
        } else {
            line(list, true, label,
                 fmt::format("{} (probe of {}: {})", cached->kvm_works ? "kvm" : "tcg",
                             cached->probed_at, cached->reason));
        }
        return;
    }
    const auto kernel = default_kernel(arch);
    if (!kernel) {
        line(list, false, label, "no default kernel to probe with: run scripts/setup.sh");
        return;
    }
    QemuSpec spec;
    spec.arch = arch;
    spec.kernel = *kernel;
    spec.initrd = prepare_guest_image(arch, std::nullopt).path;
    QemuLauncher launcher;
    const AccelChoice choice =
        choose_accel(AccelRequest::Auto, spec, host, host_id, store, launcher, 10, true);
    line(list, true, label, fmt::format("{}: {}", to_string(choice.accel), choice.reason));
}
} // namespace

void add_doctor_command(CLI::App& app, GlobalOptions& global, int& exit_status) {
    auto probe = std::make_shared<bool>(false);
    auto json = std::make_shared<bool>(false);
    CLI::App* doctor = app.add_subcommand("doctor", "Report what works on this machine");
    doctor->footer(k_doctor_help);
    doctor->add_flag("--probe", *probe, "run the KVM probe boot now instead of using the cache");
    doctor->add_flag("--json", *json, "print the checks as one JSON document at the end");
    doctor->callback([probe, json, &global, &exit_status] {
        DoctorReport list;
        list.json = *json;
        const HostFacts host = read_host_facts();
        if (!list.json) {
            std::printf("bootbench %s on %s (%s, %d CPUs, %s, kernel %s)\n", tool_version().c_str(),
                        host.hostname.c_str(), host.cpu_model.c_str(), host.cpus,
                        format_bytes(static_cast<double>(host.memory_bytes)).c_str(),
                        host.kernel_release.c_str());
        }
        section(list, "qemu");
        for (const ArchProfile& arch : arch_profiles()) {
            check_program(list, fmt::format("qemu {}", arch.name), qemu_binary(arch.arch));
        }
        section(list, "firmware");
        for (const ArchProfile& arch : arch_profiles()) {
            const std::string name(arch.default_firmware);
            try {
                const Firmware firmware = resolve_firmware(name, arch.arch);
                line(list, true, name,
                     fmt::format("{} sha256:{}", firmware.path.string(),
                                 firmware.sha256.substr(0, 16)));
            } catch (const Error& e) {
                line(list, false, name, e.what());
            }
        }
        section(list, "accelerators");
        // Everything runs under TCG without KVM: slower guests, not a broken machine.
        line(list, host.kvm_device, "/dev/kvm",
             host.kvm_device ? "present" : "absent or no access: guests run under TCG",
             Need::Optional);
        for (const ArchProfile& profile : arch_profiles()) {
            const Arch arch = profile.arch;
            try {
                check_accel(list, arch, host, *probe, global);
            } catch (const Error& e) {
                line(list, false, fmt::format("accel {}", to_string(arch)), e.what());
            }
        }
        section(list, "toolchains");
        check_program(list, "gcc", "gcc");
        for (const ArchProfile& arch : arch_profiles()) {
            if (arch.arch != host_arch()) {
                check_program(list, fmt::format("{} cross gcc", arch.qemu_name),
                              cross_prefix(arch.arch) + "gcc");
            }
        }
        check_program(list, "make", "make");
        // Kernel builds run without it, only their rebuilds are slower.
        check_program(list, "ccache", "ccache", Need::Optional);
        section(list, "guest images");
        for (const ArchProfile& profile : arch_profiles()) {
            const Arch arch = profile.arch;
            const std::string label = fmt::format("busybox {}", to_string(arch));
            try {
                line(list, true, label, find_busybox(arch).string());
            } catch (const Error& e) {
                line(list, false, label, e.what());
            }
            const auto kernel = default_kernel(arch);
            line(list, kernel.has_value(), fmt::format("default kernel {}", to_string(arch)),
                 kernel ? kernel->string() : "none (run scripts/setup.sh)");
        }
        section(list, "timing noise");
        // What changes timings and could be set quieter: notes, never problems; the same
        // conditions are stored with every boot (schema 12).
        for (const HostCondition& condition : read_host_conditions()) {
            const std::string advice = noise_advice(condition);
            line(list, advice.empty(), condition.name,
                 advice.empty() ? condition.value : condition.value + ": " + advice,
                 Need::Optional);
        }
        section(list, "storage");
        try {
            line(list, true, "cache", cache_dir().string());
        } catch (const Error& e) {
            line(list, false, "cache", e.what());
        }
        try {
            Database db(global.db_path());
            line(list, true, "database",
                 fmt::format("{} (schema {} of {})", db.path().string(), db.schema_version(),
                             latest_schema_version(bundled_migrations())));
        } catch (const Error& e) {
            line(list, false, "database", e.what());
        }
        if (list.json) {
            std::fputs(json_document(doctor_json(list, host)).c_str(), stdout);
        } else {
            std::printf("\n%s\n", list.list.summary().c_str());
        }
        exit_status = list.list.exit_status();
    });
}

} // namespace bb
