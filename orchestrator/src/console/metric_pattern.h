#pragma once
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace re2 {
class RE2;
}

namespace bb {

// A user-given metric regex (an experiment's `metrics: regex:`), compiled with RE2: matching is
// linear in the line and never recurses, so no console line can exhaust the stack or the CPU the
// way std::regex's backtracking did. The one engine for user patterns: the experiment parser
// validates with it, the extractor matches with it. Bytes are matched as Latin-1, so a console
// line with invalid UTF-8 still matches `.` byte by byte, as the kernel printed it.
class MetricPattern {
  public:
    explicit MetricPattern(const std::string& pattern);
    ~MetricPattern();
    MetricPattern(MetricPattern&&) noexcept;
    MetricPattern& operator=(MetricPattern&&) noexcept;

    // Empty when the pattern compiled; otherwise RE2's reason (e.g. "missing ): (a").
    const std::string& error() const;
    int capture_groups() const;
    // The first capture group of the leftmost match in `line` (group 1 must exist).
    std::optional<std::string_view> first_group(std::string_view line) const;

  private:
    std::unique_ptr<re2::RE2> m_re;
};

} // namespace bb
