#pragma once
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bb {

// What the guest's /init found for one dotted `module.param` of its command line, reported as
// `BOOTBENCH-PARAM <name> <state> [value]` (guest/init_script.cpp).
struct ParamReadback {
    enum class State {
        Applied,     // /sys/module/<module>/parameters/<param> exists; `value` is its content
        Unreadable,  // the file exists but is write-only
        NoParameter, // the module is there but has no such parameter
        NoModule,    // no /sys/module/<module> and no <module>.ko in the image
        ModuleFile,  // <module>.ko is in the image: the workload loads it later
        Workload,    // the workload script names it: its own setting, not the kernel's
    };
    std::string name;
    State state = State::Applied;
    std::string value;
};

// Parses what follows `BOOTBENCH-PARAM `; nullopt when it is not a well-formed report.
std::optional<ParamReadback> parse_param_readback(std::string_view rest);

// A requested parameter that did not take, and why.
struct ParamProblem {
    std::string param; // as requested: `rcutree.no_such=1`
    std::string why;
};

// Would the kernel show `actual` in sysfs after being given `requested`? Bools read back as
// Y/N whatever was written (1, y, on, or no value at all), integers in decimal.
bool same_param_value(const std::optional<std::string>& requested, std::string_view actual);

// True when the kernel holds this name as an early (`__setup`) parameter, which has no sysfs
// entry to read back (e.g. `rwsem.opt_rspin`).
using EarlyParamTest = std::function<bool(std::string_view name)>;

// The parameters of `cmdline` that did not take, in command-line order: dotted ones from the
// guest's readbacks (those without a readback are not judged), plain ones from the kernel's
// "Unknown kernel command line parameters" lines.
std::vector<ParamProblem> check_params(std::string_view cmdline,
                                       const std::vector<ParamReadback>& readbacks,
                                       const std::vector<std::string>& unknown_lines,
                                       const EarlyParamTest& is_early_param);

// "param-not-applied: rcutree.no_such=1 (module rcutree has no parameter no_such); ..."
std::string describe_param_problems(const std::vector<ParamProblem>& problems);

} // namespace bb
