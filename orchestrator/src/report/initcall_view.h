#pragma once
// Where the kernel's own boot goes, initcall by initcall (`report --view initcalls`): for each
// group of used boots whose initcall trace is complete (console/initcall_trace.h), the median
// time to /init on the kernel's clock, the median sum of the initcalls before it and what is
// left outside them, then the initcalls by median duration, each with its order-statistic
// interval, its share of the kernel's time and the boots that ran it. Boots are the unit: an
// initcall's sample holds one duration per boot. Computing only; initcall_renderer.cpp prints.
#include "console/initcall_trace.h"
#include "report/estimates.h"
#include "report/sample_query.h"
#include "store/axis_value.h"
#include "store/database.h"

#include <limits>
#include <string>
#include <vector>

namespace bb {

// Members default to {} so that designated initializers may name only what they set.

// One used boot with a complete trace.
struct TracedBoot {
    long long boot_id = 0;
    double kernel_init_s = std::numeric_limits<double>::quiet_NaN(); // NaN: not in the dump
    std::vector<InitcallRecord> initcalls{};
};

// One group's used boots, as read from the store.
struct InitcallGroupInput {
    std::vector<AxisValue> key{};
    int used = 0;
    std::vector<TracedBoot> traced{};
    int untraced = 0; // no dump: the boot ran without initcall_debug
    int wrapped = 0;  // the ring buffer had lost the boot's start
    int cut = 0;      // the dump did not reach its end
    int empty = 0;    // a dump without initcalls
};

struct InitcallRow {
    std::string name;
    std::string module;        // "" for a built-in
    MedianEstimate duration{}; // seconds, over the traced boots that ran it
    double share = std::numeric_limits<double>::quiet_NaN(); // median / median time to /init
    double start = std::numeric_limits<double>::quiet_NaN(); // median start, kernel's clock
};

struct InitcallGroup {
    std::vector<AxisValue> key{};
    int used = 0;
    int traced = 0;
    int untraced = 0;
    int wrapped = 0;
    int cut = 0;
    int empty = 0;
    MedianEstimate kernel_init{};    // the kernel's clock when it started /init
    MedianEstimate total{};          // the initcalls that started before /init, summed per boot
    MedianEstimate outside{};        // time to /init minus that sum, per boot
    int distinct = 0;                // distinct initcalls in the group's traces
    std::vector<InitcallRow> rows{}; // the `top` longest by median duration
};

struct InitcallView {
    std::vector<std::string> axes;
    int top = 0;
    std::vector<InitcallGroup> groups{};
};

// Pure: the groups as given, each initcall keyed by name and module.
InitcallView build_initcall_view(const std::vector<std::string>& axes,
                                 const std::vector<InitcallGroupInput>& groups, int top,
                                 const EstimateOptions& options = {});

struct InitcallInputs {
    std::vector<std::string> axes{};
    std::vector<InitcallGroupInput> groups{}; // sorted by key, as the selection's groups
};

// The selection's used boots (the report's one rule), grouped, their traces read from the
// store. Throws Error when the database predates initcall traces (schema 13) or no used boot
// of the selection was traced.
InitcallInputs query_initcall_inputs(Database& db, const SampleQuery& query);

// The same, as the view of the `top` longest initcalls per group. Throws
// Error when the database predates initcall traces (schema 13) or no used boot was traced.
InitcallView query_initcall_view(Database& db, const SampleQuery& query, int top,
                                 const EstimateOptions& options = {});

} // namespace bb
