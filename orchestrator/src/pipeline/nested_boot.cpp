#include "pipeline/nested_boot.h"

#include "guest/nested_init_script.h"
#include "pipeline/phase_metrics.h"

namespace bb {

MonitorLimits nested_limits(MonitorLimits limits) {
    limits.start_marker = k_l2_start_marker;
    limits.end_marker = k_l1_end_marker;
    limits.stop_on_power_down = false;
    return limits;
}

void add_l1_metrics(BootRecord& record) {
    if (const auto l1_boot = marker_host_seconds(record, k_l1_boot_marker)) {
        record.metrics.push_back({"l1_boot_seconds", *l1_boot, "s", *l1_boot});
    }
    const auto start = marker_host_seconds(record, k_l2_start_marker);
    const auto exit = marker_host_seconds(record, k_l2_exit_marker);
    if (start && exit) {
        record.metrics.push_back({"l2_run_seconds", *exit - *start, "s", *exit});
    }
}

} // namespace bb
