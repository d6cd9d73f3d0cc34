#include "console/metric_pattern.h"

#include <re2/re2.h>

namespace bb {

namespace {
RE2::Options pattern_options() {
    RE2::Options options(RE2::Latin1);
    options.set_log_errors(false); // the caller reports the error with the file and line
    return options;
}
} // namespace

MetricPattern::MetricPattern(const std::string& pattern)
    : m_re(std::make_unique<re2::RE2>(pattern, pattern_options())) {}

MetricPattern::~MetricPattern() = default;
MetricPattern::MetricPattern(MetricPattern&&) noexcept = default;
MetricPattern& MetricPattern::operator=(MetricPattern&&) noexcept = default;

const std::string& MetricPattern::error() const {
    return m_re->error();
}

int MetricPattern::capture_groups() const {
    return m_re->NumberOfCapturingGroups();
}

std::optional<std::string_view> MetricPattern::first_group(std::string_view line) const {
    re2::StringPiece groups[2]; // the whole match, then group 1
    if (!m_re->Match(line, 0, line.size(), RE2::UNANCHORED, groups, 2) ||
        groups[1].data() == nullptr) { // no match, or group 1 took no part in it
        return std::nullopt;
    }
    return std::string_view(groups[1].data(), groups[1].size());
}

} // namespace bb
