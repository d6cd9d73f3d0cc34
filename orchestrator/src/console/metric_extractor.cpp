#include "console/metric_extractor.h"

#include "util/error.h"

#include <cstdlib>

namespace bb {

std::vector<MetricSample> extract_metrics(std::string_view log,
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
    std::vector<MetricSample> samples;
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
                if (parsed_end != text.c_str()) {
                    samples.push_back({extractors[i].name, value, extractors[i].unit, 0});
                }
            }
        }
        start = end + 1;
    }
    return samples;
}

} // namespace bb
