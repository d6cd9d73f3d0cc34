#pragma once
#include "console/console_monitor.h"
#include "store/boot_record.h"
#include "vm/launcher.h"
#include "vm/qemu_spec.h"

namespace bb {

// The wiring of one boot: launcher streams the console into a monitor, the monitor decides
// when to stop and how it ended, and the result becomes a BootRecord (run id, hashes and cell
// parameters are the caller's to fill).
BootRecord boot_once(const QemuSpec& spec, const MonitorLimits& limits, Launcher& launcher);

} // namespace bb
