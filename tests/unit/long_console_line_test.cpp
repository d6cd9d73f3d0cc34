// Issue 14 item 2: one 70 KB console line with the shipped `rcu-scale: .* batches:` pattern
// overflowed the stack of `bootbench run` (std::regex recurses once per character). These
// tests feed such lines through the runner's extraction path with the patterns of configs/.
#include "console/metric_extractor.h"
#include "experiment/experiment_parser.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <string>
#include <vector>

using bb::extract_metrics;
using bb::LineExtractor;

namespace {

// The extractors `bootbench run` builds from a shipped experiment (pipeline/experiment_runner.cpp).
std::vector<LineExtractor> shipped_extractors(const std::string& config) {
    const bb::Experiment experiment =
        bb::load_experiment(std::filesystem::path(BOOTBENCH_SOURCE_DIR) / "configs" / config);
    std::vector<LineExtractor> extractors;
    for (const auto& metric : experiment.guest.metrics) {
        extractors.push_back({metric.name, metric.regex, metric.unit, metric.histogram,
                              metric.scale, metric.bucket});
    }
    return extractors;
}

std::vector<double> values_of(const bb::ExtractedMetrics& out, const std::string& name) {
    std::vector<double> values;
    for (const auto& metric : out.metrics) {
        if (metric.name == name) {
            values.push_back(metric.value);
        }
    }
    return values;
}

} // namespace

TEST_CASE("a 70 KB console line with the shipped rcu-scale pattern does not crash extraction",
          "[long-line]") {
    const auto extractors = shipped_extractors("rcu-wake-from-gp-rcuscale.yaml");
    const std::string long_line = "rcu-scale: " + std::string(70'000, 'x') + " batches: 1";
    const std::string log =
        long_line + "\n" + "rcu-scale: start: 1 end: 2 duration: 5000 gps: 10 batches: 42\n";
    const auto out = extract_metrics(log, extractors);
    // The lines after the long one are still read; the cut is counted, not silent.
    CHECK(values_of(out, "rcu_gp_batches") == std::vector<double>{42});
    CHECK(out.lines_cut == 1);
    CHECK(out.bytes_cut == long_line.size() - bb::k_max_extracted_line_bytes);
}

TEST_CASE("every shipped pattern survives a long line, and a value in its first 8 KB is kept",
          "[long-line]") {
    for (const char* config : {"srcu-storm.yaml", "srcu-nodelay-phase.yaml", "rwsem-rspin.yaml",
                               "rcu-wake-from-gp-rcuscale.yaml", "rcu-wake-from-gp.yaml"}) {
        INFO(config);
        const auto extractors = shipped_extractors(config);
        REQUIRE_FALSE(extractors.empty());
        // A match early in the line, then a guest printing without a newline.
        const std::string line = "srcu-scale: start: 1 end: 2 duration: 5000 gps: 10 batches: 7 " +
                                 std::string(100'000, '.');
        const auto out = extract_metrics(line + "\n" + line, extractors);
        CHECK(out.lines_cut == 2);
        CHECK(out.bytes_cut == 2 * (line.size() - bb::k_max_extracted_line_bytes));
    }
    const auto storm =
        extract_metrics("srcu-scale: start: 1 end: 2 duration: 5000 gps: 10 batches: 7 " +
                            std::string(100'000, '.'),
                        shipped_extractors("srcu-storm.yaml"));
    CHECK(values_of(storm, "srcu_batches") == std::vector<double>{7});
}
