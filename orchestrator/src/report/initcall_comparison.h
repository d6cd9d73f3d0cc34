#pragma once
// Which initcalls moved between two runs (`compare A B --initcalls`): in each group both runs
// have, every initcall either run's traced boots ran gets the Hodges–Lehmann shift B − A of its
// per-boot durations with the exact Mann–Whitney interval and p (the boot is the unit; a boot
// that did not run an initcall spent 0 in it, so an initcall a patch adds or removes moves by
// its whole time). Hundreds of initcalls are one family: an initcall "moved" when its
// Benjamini–Hochberg q is at most α (the false discovery rate); Holm's adjusted p is beside it
// for the strict, family-wise view. The kernel's time to /init and the initcalls' sum get the
// same test, and the moved initcalls' shifts are summed beside the time to /init's: what is
// left is what no single initcall explains. Computing only.
#include "report/estimates.h"
#include "report/initcall_view.h"

#include <limits>
#include <string>
#include <vector>

namespace bb {

struct InitcallShift {
    std::string name;
    std::string module;
    char only_in = 0; // 'A' or 'B': no boot of the other run ran it; 0: both did
    Comparison comparison{};
    double q = std::numeric_limits<double>::quiet_NaN();    // Benjamini–Hochberg
    double holm = std::numeric_limits<double>::quiet_NaN(); // Holm
    bool moved = false;                                     // q ≤ α
};

struct InitcallGroupShift {
    std::vector<AxisValue> key{};
    int traced_a = 0;
    int traced_b = 0;
    Comparison kernel_init{}; // the kernel's time to /init
    Comparison total{};       // the initcalls before /init, summed per boot
    int tested = 0;           // initcalls in the family (either run ran them)
    int moved = 0;
    double moved_sum = 0;                // sum of the moved initcalls' shifts B − A
    std::vector<InitcallShift> shifts{}; // every tested initcall, largest |shift| first
};

struct InitcallComparison {
    std::vector<std::string> axes{};
    double alpha = 0.05;
    std::string unit = "traced boots";        // what one value is: a boot, or a history's night
    std::vector<InitcallGroupShift> groups{}; // groups with traced boots in both runs
    int only_one_run = 0;                     // groups left out: traced boots in one run only
};

InitcallComparison compare_initcalls(const InitcallInputs& a, const InitcallInputs& b,
                                     const EstimateOptions& options = {});

} // namespace bb
