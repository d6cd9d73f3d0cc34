#pragma once
#include "store/boot_record.h"

#include <optional>
#include <string_view>

namespace bb {

// Host time of the first marker `name` on the boot's console, if it was printed.
std::optional<double> marker_host_seconds(const BootRecord& record, std::string_view name);

// A guest phase on the host's clock: for each marker `P-start` followed by a marker `P-end`, the
// metric `P_seconds` (dashes become underscores) is the host time between them. Guest clocks
// under nested KVM are not what the seed timed; the host's monotonic clock is.
void add_phase_metrics(BootRecord& record);

} // namespace bb
