#pragma once
// Pieces every renderer of report/ shares: how a number prints in a row (automatic time units
// or the metric's own unit) and how values become JSON. Computes no statistics.
#include "report/estimates.h"
#include "report/report_format.h"
#include "report/sample_query.h"
#include "report/text_table.h"
#include "stats/result.h"
#include "util/units.h"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace bb {

// How the numbers of one row print: times share a unit picked from a representative value;
// other metrics print plainly with their unit.
class ValueFormat {
  public:
    ValueFormat(bool seconds, std::string unit, double representative);

    std::string operator()(double value) const;
    std::string signed_value(double value) const; // "+1.2 ms", "-0.5 ms"
    // A plain number with as many digits as its size deserves ("12", "3.142", "0.0125").
    static std::string plain(double value);

  private:
    bool m_seconds;
    std::string m_unit;
    TimeUnit m_time_unit;
};

// One unit for a whole column of numbers, as the seed tables print bare numbers under
// "Boot time (s)": times in s, ms or µs picked from a representative value, other metrics in
// their own unit.
struct ColumnUnit {
    std::string symbol; // "s", "ms", "µs", the metric's unit, or empty
    double scale = 1;   // stored value × scale = printed number
    // Times print with one number of decimals for the whole column (four significant digits
    // of the representative value), so digits line up; -1: other metrics print plainly.
    int decimals = -1;

    std::string number(double value) const;            // "-" when not finite
    std::string signed_number(double value) const;     // "+1.250", "-3"
    std::string header(const std::string& name) const; // "boot_seconds (s)" or just the name
};
ColumnUnit column_unit(bool seconds, const std::string& unit, double representative);

// ", 1 failed and 2 loaded used": failed and foreign-loaded boots that entered a figure
// (--include-failed, --include-loaded); empty when none did.
std::string contaminated_text(int used_failed, int used_loaded);
// "0/2": failed and loaded boots among a group's used ones (the "failed/loaded used" column).
std::string used_contaminated_text(const SampleGroup& group);

// A p-value to three significant digits; "-" when there is none.
std::string p_value_text(double p);

// "[1.0 ms, 2.0 ms]" (signed: "[-1.0 ms, +2.0 ms]"); empty when the interval has no ends.
std::string interval_text(const Interval& interval, const ValueFormat& format, bool signed_values);
// "12.0 ms [10.0 ms, 14.0 ms]", or just the value when there is no interval.
std::string with_interval(const std::string& value, const std::string& interval);

// A heading, the table and notes, aligned (Text) or as Markdown (a blank line after the
// heading and before the notes); the views share it.
std::string render_text_or_markdown(const std::string& heading, const Table& table,
                                    const std::vector<std::string>& notes, ReportFormat format);

// NaN and infinities have no JSON spelling: they become null.
nlohmann::json number_or_null(double value);
nlohmann::json interval_json(const Interval& interval);
// A test's or estimate's result: estimate, interval and its confidence, p, method, whether exact,
// and why there is none ("insufficient"), numbers that are not finite as null.
nlohmann::json result_json(const stats::Result& result);
// A two-group comparison (report/estimates.h): the n's, medians, Hodges–Lehmann shift with its
// interval and coverage, p and Holm's p, why there is none, and the verdict.
nlohmann::json comparison_result_json(const Comparison& c);
nlohmann::json axis_json(const AxisValue& value);
nlohmann::json key_json(const std::vector<std::string>& axes, const std::vector<AxisValue>& key);
// Compact JSON; invalid UTF-8 (a console line in a cell key, say) is replaced, not fatal.
std::string json_text(const nlohmann::json& value);
// Pretty JSON with the same tolerance, ending in a newline.
std::string json_document(const nlohmann::json& value);

} // namespace bb
