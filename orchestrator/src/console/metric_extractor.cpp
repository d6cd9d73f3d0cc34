#include "console/metric_extractor.h"

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
    const auto rank = static_cast<size_t>(
        std::max(1.0, std::ceil(q * static_cast<double>(values.size()))));
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
    out.metrics.push_back(
        {extractor.name + "_n", static_cast<double>(values.size()), "count", 0});
    for (const auto& [suffix, q] : {std::pair{"_p50", 0.5}, {"_p90", 0.9}, {"_p99", 0.99}}) {
        out.metrics.push_back(
            {extractor.name + suffix, *nearest_rank_percentile(values, q), extractor.unit, 0});
    }
    out.metrics.push_back(
        {extractor.name + "_max", *std::max_element(values.begin(), values.end()),
         extractor.unit, 0});
}
} // namespace

ExtractedMetrics extract_metrics(std::string_view log,
                                 const std::vector<LineExtractor>& extractors) {
    std::vector<std::regex> compiled;
    compiled.reserve(extractors.size());
    for (const auto& extractor : extractors) {
        try {
            compiled.emplace_back(extractor.pattern);
        } catch (const std::regex_error& e) {
            throw Error("metric " + extractor.name + ": bad regex: " + e.what());
        }
    }
    ExtractedMetrics out;
    std::vector<std::vector<double>> distributions(extractors.size());
    size_t start = 0;
    while (start < log.size()) {
        size_t end = log.find('\n', start);
        if (end == std::string_view::npos) {
            end = log.size();
        }
        const std::string line(log.substr(start, end - start));
        for (size_t i = 0; i < extractors.size(); ++i) {
            std::smatch match;
            if (std::regex_search(line, match, compiled[i]) && match.size() >= 2) {
                char* parsed_end = nullptr;
                const std::string text = match[1].str();
                const double value = std::strtod(text.c_str(), &parsed_end);
                // "nan" or an overflow is no measurement (and NaN cannot be stored).
                if (parsed_end == text.c_str() || !std::isfinite(value * extractors[i].scale)) {
                    continue;
                }
                if (extractors[i].histogram) {
                    distributions[i].push_back(value * extractors[i].scale);
                } else {
                    out.metrics.push_back(
                        {extractors[i].name, value * extractors[i].scale, extractors[i].unit, 0});
                }
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
