// The unit tests' own main: Catch2 v2 passes a run whose test spec matches nothing and a test
// case that checks nothing, and its command line takes only one --warn. Both warnings are set
// here, so every run of unit_tests (ctest's, CI's, one by hand) fails in either case.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

int main(int argc, char* argv[]) {
    Catch::Session session;
    if (const int status = session.applyCommandLine(argc, argv); status != 0) {
        return status;
    }
    auto& config = session.configData();
    config.warnings = static_cast<Catch::WarnAbout::What>(
        config.warnings | Catch::WarnAbout::NoAssertions | Catch::WarnAbout::NoTests);
    return session.run();
}

// Never runs in a normal run (hidden by the "." tag). tests/no_silent_passes.cmake runs it by
// name and expects the run to fail because it asserts nothing.
TEST_CASE("a test case without assertions fails the run", "[.no_assertions_canary]") {}
