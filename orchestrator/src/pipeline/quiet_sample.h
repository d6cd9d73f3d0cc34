#pragma once
#include "schedule/quiet_gate.h"
#include "store/boot_record.h"

#include <functional>
#include <optional>
#include <string>

namespace bb {

// The quiet-host gate as `boot` and `run` put it before each sample. It gates guests booted
// on this machine only: a libvirt host's load cannot be seen from here, and a local libvirt
// guest of another lane is libvirtd's child, which the load measurement would count as foreign
// (docs/reliability.md lists this limit). nullopt: no gate (switched off, or not local).
// `source`: the lane's own, kept from sample to sample (its window is continuous).
std::optional<QuietVerdict> gate_sample(const QuietSettings& settings, bool guest_is_our_child,
                                        HostLoadSource& source,
                                        const std::function<void(const std::string&)>& status);

// What the gate found and decided, stored with the sample (schema 8).
void record_quiet(BootRecord& boot, const QuietSettings& settings,
                  const std::optional<QuietVerdict>& verdict);

// The note a run prints for a sample that waited: why and how long. Empty when it did not.
std::string wait_note(const QuietSettings& settings, const QuietVerdict& verdict,
                      const std::string& sample);

// Why a run stopped (on_timeout: stop), and how to go on.
std::string quiet_stop_reason(const QuietSettings& settings, const QuietVerdict& verdict,
                              const std::string& sample);

} // namespace bb
