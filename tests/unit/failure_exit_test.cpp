#include "pipeline/failure_exit.h"
#include "util/interrupt.h"

#include <SQLiteCpp/Exception.h>
#include <catch2/catch.hpp>
#include <filesystem>
#include <new>
#include <sqlite3.h>
#include <stdexcept>

using bb::FailureExit;

namespace {
template <typename Failure> FailureExit exit_of(const Failure& failure) {
    return bb::failure_exit(std::make_exception_ptr(failure), "/tmp/results.sqlite");
}
} // namespace

// README "Exit status": each kind of failure has one status; tests/integration/exit_status.sh
// produces each from the outside.
TEST_CASE("each kind of failure exits with the README's status", "[exit-status]") {
    const FailureExit usage = exit_of(bb::Error("--arch: unknown architecture 'sparc'"));
    CHECK(usage.status == 2);
    CHECK(usage.message == "bootbench: error: --arch: unknown architecture 'sparc'");

    const FailureExit environment = exit_of(bb::RuntimeFailure("program not found on PATH: git"));
    CHECK(environment.status == 3);
    CHECK(environment.message == "bootbench: error: program not found on PATH: git");

    const FailureExit stopped = exit_of(bb::Interrupted("build interrupted"));
    CHECK(stopped.status == 130);
    CHECK(stopped.message == "bootbench: interrupted: build interrupted");
}

TEST_CASE("an exception of no kind is a bug with its own status, not the environment's",
          "[exit-status]") {
    const FailureExit logic = exit_of(std::logic_error("vector::_M_range_check"));
    CHECK(logic.status == 70);
    CHECK(logic.message ==
          "bootbench: internal error: vector::_M_range_check (please report this)");
    CHECK(exit_of(std::out_of_range("map::at")).status == 70);
    CHECK(exit_of(std::runtime_error("[json.exception.type_error.302]")).status == 70);
    CHECK(exit_of(42).status == 70);
    CHECK(exit_of(42).message ==
          "bootbench: internal error: an exception of unknown type (please report this)");
}

TEST_CASE("the system refusing is the environment failing", "[exit-status]") {
    const std::filesystem::filesystem_error denied(
        "cannot create directories", "/var/cache/bootbench/locks",
        std::make_error_code(std::errc::permission_denied));
    CHECK(exit_of(denied).status == 3);
    CHECK(exit_of(denied).message.rfind("bootbench: error: ", 0) == 0);
    CHECK(exit_of(std::bad_alloc()).status == 3);
}

TEST_CASE("a database error names the file and a lock held too long is the environment",
          "[exit-status]") {
    const FailureExit malformed =
        exit_of(SQLite::Exception("database disk image is malformed", SQLITE_CORRUPT));
    CHECK(malformed.status == 2);
    CHECK(malformed.message ==
          "bootbench: database error in /tmp/results.sqlite: database disk image is malformed");
    const FailureExit locked = exit_of(SQLite::Exception("database is locked", SQLITE_BUSY));
    CHECK(locked.status == 3);
    CHECK(locked.message == "bootbench: database error in /tmp/results.sqlite: database is locked "
                            "(another process held it past the busy timeout; run again once "
                            "that process is done)");
    CHECK(exit_of(SQLite::Exception("database is locked", SQLITE_BUSY_SNAPSHOT)).status == 3);
    CHECK(exit_of(SQLite::Exception("database table is locked", SQLITE_LOCKED)).status == 3);
}

TEST_CASE("a statement stopped by Ctrl-C is an interruption and one stopped otherwise is not",
          "[exit-status]") {
    const SQLite::Exception stopped("interrupted", SQLITE_INTERRUPT);
    CHECK(exit_of(stopped).status == 2);
    bb::request_interrupt();
    const FailureExit interrupted = exit_of(stopped);
    bb::reset_interrupted();
    CHECK(interrupted.status == 130);
    CHECK(interrupted.message ==
          "bootbench: interrupted: database error in /tmp/results.sqlite: interrupted");
}
