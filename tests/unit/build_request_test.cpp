// The one build-spec → build-request mapping (artifacts/build_request.h) refuses a Kconfig
// choice that does not exist at once: `bootbench build --hz 123` on a fresh machine used to
// fetch and unpack the kernel source before saying so (found by reliability.bad_input).
#include "artifacts/build_request.h"
#include "util/error.h"

#include <catch2/catch.hpp>

TEST_CASE("build_request refuses an HZ or preemption model Kconfig lacks, and keeps good ones",
          "[build]") {
    bb::KernelBuildSpec spec;
    spec.arch = bb::Arch::Arm64;
    spec.default_fragment = false;
    spec.hz = 123;
    CHECK_THROWS_WITH(bb::build_request(spec, 1),
                      Catch::Contains("hz: 123 is not a Kconfig choice"));
    spec.hz = 250;
    spec.preempt = "fast";
    CHECK_THROWS_WITH(bb::build_request(spec, 1), Catch::Contains("preempt: 'fast' is not one of"));
    spec.preempt = "full";
    const bb::BuildRequest request = bb::build_request(spec, 1);
    CHECK(request.config.hz == 250);
    CHECK(request.config.preempt == "full");
}
