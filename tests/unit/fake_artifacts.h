#pragma once
// FAKE prepared artifacts, for unit tests only: one kernel per cell at paths nothing opens (the
// fake launcher boots nothing), with placeholder hashes. Real kernels are built by the
// integration tests (tests/integration).
#include "pipeline/run_artifacts.h"

#include <string>
#include <vector>

namespace bb::test {

inline bb::RunArtifacts fake_artifacts(const std::vector<bb::Cell>& cells) {
    bb::RunArtifacts artifacts;
    for (const auto& cell : cells) {
        bb::BuiltKernel kernel;
        kernel.image = "/fake/" + cell.variant + "/Image";
        kernel.kernel_sha256 = std::string(64, 'a');
        kernel.initrd = "/fake/initrd";
        kernel.initrd_sha256 = std::string(64, 'b');
        artifacts.kernels.emplace(cell.build_id, kernel);
    }
    return artifacts;
}

} // namespace bb::test
