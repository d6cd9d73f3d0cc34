#pragma once
#include "vm/launcher.h"

#include <vector>

namespace bb {

// Local qemu as a child process: argv (never a shell), its own process group, stdin from
// /dev/null, PR_SET_PDEATHSIG so it dies with us, stdout = the serial console read without
// blocking, stderr kept (bounded) for error messages. Optional CPU affinity for pinning.
class QemuLauncher final : public Launcher {
  public:
    explicit QemuLauncher(std::vector<int> cpus = {}) : m_cpus(std::move(cpus)) {}
    LaunchResult run(const QemuSpec& spec, const ConsoleCallbacks& callbacks) override;
    // The same for a ready argv (program first).
    LaunchResult run_argv(const std::vector<std::string>& argv, const ConsoleCallbacks& callbacks);

  private:
    std::vector<int> m_cpus;
};

} // namespace bb
