// libFuzzer target: any bytes as a console log, matched by every metric pattern of the shipped
// experiments (configs/*.yaml, read through the experiment parser as `bootbench run` reads them)
// plus the input's first line as a pattern of its own when RE2 accepts it (patterns are
// user-given). Each input is also repeated into one line of 70 KB+ without a newline: the line
// that overflowed std::regex's stack (issue 14). Extraction must not crash, every value must be
// finite, and the cut must be counted exactly.
#include "console/metric_extractor.h"
#include "console/metric_pattern.h"
#include "experiment/experiment_parser.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace {

std::vector<bb::LineExtractor> g_shipped;

std::vector<bb::LineExtractor> shipped_extractors() {
    std::vector<bb::LineExtractor> extractors;
    const auto configs = std::filesystem::path(BOOTBENCH_SOURCE_DIR) / "configs";
    for (const auto& entry : std::filesystem::directory_iterator(configs)) {
        if (entry.path().extension() != ".yaml") {
            continue;
        }
        std::ifstream in(entry.path());
        std::stringstream text;
        text << in.rdbuf();
        const bb::Experiment experiment = bb::parse_experiment(text.str(), entry.path());
        for (const auto& metric : experiment.guest.metrics) {
            extractors.push_back({metric.name, metric.regex, metric.unit, metric.histogram,
                                  metric.scale, metric.bucket});
        }
    }
    return extractors;
}

// The input as one line of at least 70 KB (newlines become spaces).
std::string long_line_of(std::string_view bytes) {
    std::string piece(bytes.empty() ? std::string_view("x") : bytes);
    for (char& c : piece) {
        c = c == '\n' ? ' ' : c;
    }
    std::string line;
    while (line.size() < 70'000) {
        line += piece;
    }
    return line;
}

void check(const bb::ExtractedMetrics& out) {
    for (const auto& metric : out.metrics) {
        if (!std::isfinite(metric.value)) {
            __builtin_trap(); // a non-finite value cannot be stored
        }
    }
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    g_shipped = shipped_extractors();
    if (g_shipped.empty()) {
        __builtin_trap(); // the target would fuzz nothing of what ships
    }
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    std::vector<bb::LineExtractor> extractors = g_shipped;
    if (const size_t newline = bytes.find('\n'); newline != std::string_view::npos) {
        const std::string pattern(bytes.substr(0, newline));
        const bb::MetricPattern candidate(pattern);
        if (candidate.error().empty() && candidate.capture_groups() >= 1) {
            extractors.push_back({"fuzz", pattern, "", size % 2 == 0, 1, 1});
        }
    }
    check(bb::extract_metrics(bytes, extractors));
    const std::string line = long_line_of(bytes);
    const auto out = bb::extract_metrics(line, extractors);
    check(out);
    if (out.lines_cut != 1 || out.bytes_cut != line.size() - bb::k_max_extracted_line_bytes) {
        __builtin_trap(); // what the extractors did not see must be counted
    }
    return 0;
}
