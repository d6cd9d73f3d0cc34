#include "kcidb/kcidb_ids.h"
#include "kcidb/kcidb_objects.h"
#include "kcidb/kcidb_status.h"
#include "store/boot_params.h"

#include <cmath>
#include <fmt/format.h>

namespace bb {

namespace {
using nlohmann::json;

// The schema's limit on log_excerpt is 16384 characters; as many bytes are never more.
constexpr std::size_t k_log_excerpt_bytes = 16384;

void put_finite(json& object, const char* key, const std::optional<double>& value) {
    if (value && std::isfinite(*value)) {
        object[key] = *value;
    }
}

// Every timing of the boot, in seconds (docs/database.md, `boots`).
json seconds(const KcidbBootRow& boot) {
    json times = json::object();
    put_finite(times, "boot", boot.boot_seconds);
    put_finite(times, "guest_marker", boot.guest_marker_seconds);
    put_finite(times, "first_byte", boot.first_byte_seconds);
    put_finite(times, "banner", boot.banner_seconds);
    put_finite(times, "run_init", boot.run_init_seconds);
    put_finite(times, "wall", boot.wall_seconds);
    return times;
}

json metrics(const KcidbBootRow& boot) {
    json list = json::array();
    for (const auto& metric : boot.metrics) {
        if (std::isfinite(metric.value)) {
            list.push_back({{"name", metric.name}, {"value", metric.value}, {"unit", metric.unit}});
        }
    }
    return list;
}

json test_misc(const KcidbBootRow& boot) {
    json misc = {{"run_id", boot.run_id},
                 {"boot_id", boot.id},
                 {"run_mode", boot.run_mode},
                 {"cell_key", boot.cell_key},
                 {"params", boot_params_as_stored(boot.params_json)},
                 {"repeat_index", boot.repeat_index},
                 {"outcome", boot.outcome},
                 {"outcome_reason", boot.outcome_reason},
                 {"used", boot.used},
                 {"loaded", boot.loaded},
                 {"kernel_sha256", boot.kernel_sha256},
                 {"cmdline", boot.cmdline},
                 {"seconds", seconds(boot)},
                 {"metrics", metrics(boot)}};
    if (!boot.experiment.empty()) {
        misc["experiment"] = boot.experiment;
    }
    if (boot.params_not_applied) {
        misc["params_not_applied"] = *boot.params_not_applied;
    }
    if (!boot.timing_marker.empty()) {
        misc["timing_marker"] = boot.timing_marker;
        misc["start_marker"] = boot.start_marker;
    }
    return misc;
}

json environment(const KcidbBootRow& boot) {
    json misc = {{"host", boot.host_name},      {"arch", boot.arch},
                 {"machine", boot.machine},     {"smp", boot.smp},
                 {"memory_mb", boot.memory_mb}, {"accel", boot.accel},
                 {"launcher", boot.launcher}};
    if (!boot.firmware_name.empty()) {
        misc["firmware"] = boot.firmware_name;
    }
    put_finite(misc, "foreign_load", boot.foreign_load);
    return {{"comment", fmt::format("qemu {} {}, {} vCPU, {} MiB, {}{} on {}", boot.arch,
                                    boot.machine, boot.smp, boot.memory_mb, boot.accel,
                                    boot.firmware_name.empty() ? "" : ", " + boot.firmware_name,
                                    boot.host_name)},
            {"misc", misc}};
}

// The end of the console says why a boot did not finish; an ok boot's says nothing new.
void put_log_excerpt(json& test, const KcidbBootRow& boot) {
    if (test["status"] == "DONE" || boot.console_tail.empty()) {
        return;
    }
    const std::string& tail = boot.console_tail;
    test["log_excerpt"] =
        tail.size() <= k_log_excerpt_bytes ? tail : tail.substr(tail.size() - k_log_excerpt_bytes);
}
} // namespace

json kcidb_test(const KcidbBootRow& boot) {
    const std::string_view status = kcidb_status(boot.outcome, boot.params_not_applied.has_value());
    json test = {{"id", kcidb_test_id(boot)},
                 {"origin", k_kcidb_origin},
                 {"build_id", kcidb_build_id(boot)},
                 {"path", kcidb_test_path(boot.experiment)},
                 {"status", status},
                 {"comment", fmt::format("{}: {}", boot.outcome, boot.outcome_reason)},
                 {"environment", environment(boot)},
                 {"misc", test_misc(boot)}};
    if (kcidb_status_ran(status) && boot.boot_seconds && std::isfinite(*boot.boot_seconds)) {
        test["number"] = {{"value", *boot.boot_seconds}, {"unit", "s"}, {"prefix", "metric"}};
    }
    // A stored time that is not RFC 3339 (a damaged row) is left out, not written as one.
    if (kcidb_date_time(boot.started_at)) {
        test["start_time"] = boot.started_at;
    }
    put_finite(test, "duration", boot.wall_seconds);
    put_log_excerpt(test, boot);
    return test;
}

} // namespace bb
