#include "console/metric_extractor.h"

#include "console/metric_pattern.h"
#include "util/error.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>

namespace bb {

std::optional<double> nearest_rank_percentile(std::vector<double> values, double q) {
    if (values.empty()) {
        return std::nullopt;
    }
    const auto rank =
        static_cast<size_t>(std::max(1.0, std::ceil(q * static_cast<double>(values.size()))));
    std::nth_element(values.begin(), values.begin() + static_cast<long>(rank - 1), values.end());
    return values[rank - 1];
}

namespace {
void summarize_distribution(const LineExtractor& extractor, const std::vector<double>& values,
                            ExtractedMetrics& out) {
    if (values.empty()) {
        return;
    }
    std::map<long long, long long> counts; // bucket index -> observations
    for (const double value : values) {
        // A bucket index beyond any integer cannot be converted; such a value is no duration.
        const double index = std::floor(value / extractor.bucket);
        if (std::fabs(index) < 1e18) {
            ++counts[static_cast<long long>(index)];
        }
    }
    for (const auto& [index, count] : counts) {
        out.histograms.push_back({extractor.name, static_cast<double>(index) * extractor.bucket,
                                  static_cast<double>(index + 1) * extractor.bucket, count});
    }
    out.metrics.push_back({extractor.name + "_n", static_cast<double>(values.size()), "count", 0});
    for (const auto& [suffix, q] : {std::pair{"_p50", 0.5}, {"_p90", 0.9}, {"_p99", 0.99}}) {
        out.metrics.push_back(
            {extractor.name + suffix, *nearest_rank_percentile(values, q), extractor.unit, 0});
    }
    out.metrics.push_back({extractor.name + "_max", *std::max_element(values.begin(), values.end()),
                           extractor.unit, 0});
}

std::vector<MetricPattern> compile_patterns(const std::vector<LineExtractor>& extractors) {
    std::vector<MetricPattern> compiled;
    compiled.reserve(extractors.size());
    for (const auto& extractor : extractors) {
        MetricPattern pattern(extractor.pattern);
        if (!pattern.error().empty()) {
            throw Error("metric " + extractor.name + ": bad regex: " + pattern.error());
        }
        if (pattern.capture_groups() < 1) {
            throw Error("metric " + extractor.name + ": regex has no capture group");
        }
        compiled.push_back(std::move(pattern));
    }
    return compiled;
}

// The scaled number the pattern captures in `line`, if it matches and the capture is a finite
// number ("nan" or an overflow is no measurement, and NaN cannot be stored).
std::optional<double> scaled_value(const MetricPattern& pattern, std::string_view line,
                                   double scale) {
    const auto group = pattern.first_group(line);
    if (!group) {
        return std::nullopt;
    }
    const std::string text(*group); // strtod needs the terminating NUL
    char* parsed_end = nullptr;
    const double value = std::strtod(text.c_str(), &parsed_end) * scale;
    if (parsed_end == text.c_str() || !std::isfinite(value)) {
        return std::nullopt;
    }
    return value;
}

// The part of `line` extractors see; what lies beyond the limit is counted in `out`.
std::string_view bounded(std::string_view line, ExtractedMetrics& out) {
    if (line.size() <= k_max_extracted_line_bytes) {
        return line;
    }
    ++out.lines_cut;
    out.bytes_cut += line.size() - k_max_extracted_line_bytes;
    return line.substr(0, k_max_extracted_line_bytes);
}
} // namespace

ExtractedMetrics extract_metrics(std::string_view log,
                                 const std::vector<LineExtractor>& extractors) {
    const std::vector<MetricPattern> compiled = compile_patterns(extractors);
    ExtractedMetrics out;
    std::vector<std::vector<double>> distributions(extractors.size());
    size_t start = 0;
    while (start < log.size()) {
        const size_t end = std::min(log.find('\n', start), log.size());
        const std::string_view line = bounded(log.substr(start, end - start), out);
        for (size_t i = 0; i < extractors.size(); ++i) {
            const auto value = scaled_value(compiled[i], line, extractors[i].scale);
            if (value && extractors[i].histogram) {
                distributions[i].push_back(*value);
            } else if (value) {
                out.metrics.push_back({extractors[i].name, *value, extractors[i].unit, 0});
            }
        }
        start = end + 1;
    }
    for (size_t i = 0; i < extractors.size(); ++i) {
        if (extractors[i].histogram) {
            summarize_distribution(extractors[i], distributions[i], out);
        }
    }
    return out;
}

} // namespace bb
