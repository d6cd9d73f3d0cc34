#include "report/boot_summary.h"

#include "report/statistics.h"
#include "store/sample_rule.h"
#include "util/units.h"

#include <algorithm>
#include <fmt/format.h>
#include <map>

namespace bb {

namespace {
std::vector<double> ok_values(const std::vector<BootRecord>& boots,
                              std::optional<double> BootRecord::*field) {
    std::vector<double> values;
    for (const auto& boot : boots) {
        if (is_used_sample(boot) && (boot.*field).has_value()) {
            values.push_back(*(boot.*field));
        }
    }
    return values;
}

// The outcome, or why an ok boot is not used (store/sample_rule.h).
std::string sample_label(const BootRecord& boot) {
    if (boot.outcome != BootOutcome::Ok || is_used_sample(boot)) {
        return std::string(to_string(boot.outcome));
    }
    return is_warmup(boot) ? "warmup" : boot.params_not_applied ? "param-not-applied" : "loaded";
}

// `bootbench boot` counts its boots from 1; its warm-ups (--warmup) before them.
std::string boot_name(const BootRecord& boot) {
    return is_warmup(boot) ? repeat_label(boot.repeat_index)
                           : fmt::format("boot {}", boot.repeat_index + 1);
}

std::string outcome_counts(const std::vector<BootRecord>& boots) {
    std::map<std::string, int> counts;
    for (const auto& boot : boots) {
        ++counts[sample_label(boot)];
    }
    std::string text;
    for (const auto& [name, count] : counts) {
        text += fmt::format("{}{} {}", text.empty() ? "" : ", ", count, name);
    }
    return text;
}

nlohmann::json summary_json(const Summary& summary) {
    return {{"n", summary.n},           {"mean", summary.mean}, {"stddev", summary.stddev},
            {"median", summary.median}, {"min", summary.min},   {"max", summary.max}};
}
} // namespace

std::string render_boot_summary(const std::vector<BootRecord>& boots) {
    const auto host = ok_values(boots, &BootRecord::boot_seconds);
    std::string out;
    if (host.empty()) {
        const bool flagged = std::any_of(boots.begin(), boots.end(), [](const BootRecord& boot) {
            return boot.outcome == BootOutcome::Ok;
        });
        out += flagged ? "  No boot ran as configured on a quiet host (below).\n"
                       : "  No boot reached the marker.\n";
    } else {
        const Summary s = summarize(host);
        const TimeUnit unit = unit_for_seconds(s.mean);
        std::string guest_note;
        const auto guest = ok_values(boots, &BootRecord::guest_marker_seconds);
        if (!guest.empty()) {
            const Summary g = summarize(guest);
            const TimeUnit gunit = unit_for_seconds(g.mean);
            guest_note = fmt::format("    [guest uptime: {} ± {}]", format_seconds(g.mean, gunit),
                                     format_seconds(g.stddev, gunit));
        }
        out +=
            fmt::format("  Time (mean ± σ):     {:>10} ± {:>10}{}\n", format_seconds(s.mean, unit),
                        format_seconds(s.stddev, unit), guest_note);
        out += fmt::format("  Median:              {:>10}\n", format_seconds(s.median, unit));
        out += fmt::format("  Range (min … max):   {:>10} … {:>10}    {} boot{}\n",
                           format_seconds(s.min, unit), format_seconds(s.max, unit), s.n,
                           s.n == 1 ? "" : "s");
        if (const int outliers = count_outliers(host); outliers > 0) {
            out += fmt::format("  Warning: {} statistical outlier{} (modified Z-score > 3.5): "
                               "the host may have been busy.\n",
                               outliers, outliers == 1 ? "" : "s");
        }
    }
    out += fmt::format("  Outcomes:            {}\n", outcome_counts(boots));
    for (const auto& boot : boots) {
        if (boot.outcome != BootOutcome::Ok) {
            out += fmt::format("    {}: {}: {}\n", boot_name(boot), to_string(boot.outcome),
                               boot.outcome_reason);
        } else if (boot.params_not_applied) {
            out += fmt::format("    {}: {}\n", boot_name(boot), *boot.params_not_applied);
        } else if (is_loaded(boot)) {
            out += fmt::format("    {}: loaded (foreign load {:.2f}): stored, not used\n",
                               boot_name(boot), boot.foreign_load.value_or(0));
        }
    }
    return out;
}

nlohmann::json boot_summary_json(const std::vector<BootRecord>& boots) {
    nlohmann::json samples = nlohmann::json::array();
    for (const auto& boot : boots) {
        samples.push_back({
            {"repeat", boot.repeat_index},
            {"warmup", is_warmup(boot)},
            {"outcome", std::string(to_string(boot.outcome))},
            {"reason", boot.outcome_reason},
            {"params_not_applied",
             boot.params_not_applied ? nlohmann::json(*boot.params_not_applied) : nullptr},
            {"boot_seconds", boot.boot_seconds ? nlohmann::json(*boot.boot_seconds) : nullptr},
            {"guest_marker_seconds",
             boot.guest_marker_seconds ? nlohmann::json(*boot.guest_marker_seconds) : nullptr},
            {"wall_seconds", boot.wall_seconds},
            {"foreign_load", boot.foreign_load ? nlohmann::json(*boot.foreign_load) : nullptr},
            {"accel", boot.accel},
            {"cmdline", boot.cmdline},
            {"argv", boot.argv},
        });
    }
    return {{"time", summary_json(summarize(ok_values(boots, &BootRecord::boot_seconds)))},
            {"samples", samples}};
}

} // namespace bb
