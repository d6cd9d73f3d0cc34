// libFuzzer target: any bytes as an experiment file. The parser must either return a valid
// Experiment or throw bb::Error with a message; nothing else (no crash, no other exception,
// no sanitizer report, no hang). Valid experiments are also expanded into their matrix.
#include "experiment/experiment_parser.h"
#include "experiment/matrix.h"
#include "util/error.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    try {
        const bb::Experiment experiment = bb::parse_experiment(text, "fuzz.yaml");
        const auto cells = bb::expand_matrix(experiment);
        (void)bb::schedule_order(cells, experiment.repeats, 1, true);
    } catch (const bb::Error& error) {
        if (std::string_view(error.what()).empty()) {
            __builtin_trap(); // every error must say something
        }
    }
    return 0;
}
