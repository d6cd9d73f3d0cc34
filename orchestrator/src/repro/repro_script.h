#pragma once
#include "repro/repro_plan.h"

#include <string>

namespace bb {

// The bash script `bootbench repro` prints: it checks every input of the boot against the hash
// the boot recorded, can rebuild the kernel from Debian's source with the recorded patches and
// .config (--rebuild-kernel; --check-only stops before make), replays the recorded qemu argv and
// prints the new time to the marker beside the stored one. It needs bash, coreutils and qemu
// (and apt, make and the cross toolchain to rebuild), never bootbench or its database.
std::string render_repro_script(const ReproPlan& plan, const std::string& tool_version);

} // namespace bb
