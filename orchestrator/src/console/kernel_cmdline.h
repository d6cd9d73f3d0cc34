#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bb {

// One parameter of a kernel command line: `name=value`, or a bare `name` (no value).
struct KernelParam {
    std::string name;
    std::optional<std::string> value;
};

// Splits a command line the way Linux does (lib/cmdline.c next_arg): spaces separate
// parameters except inside double quotes, quotes around a value are dropped, and everything
// after a lone `--` belongs to init, not to the kernel.
std::vector<KernelParam> parse_kernel_cmdline(std::string_view cmdline);

// Linux treats `-` and `_` in parameter names as the same character; sysfs shows `_`.
std::string canonical_param_name(std::string_view name);

} // namespace bb
