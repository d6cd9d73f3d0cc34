#include "pipeline/failure_exit.h"

#include "store/database_error.h"
#include "util/interrupt.h"

#include <SQLiteCpp/Exception.h>
#include <fmt/format.h>
#include <new>
#include <sqlite3.h>
#include <system_error>

namespace bb {

namespace {
FailureExit database_failure_exit(const SQLite::Exception& e, const std::string& database) {
    const std::string message = fmt::format("database error in {}: {}", database, e.what());
    // A read stopped by Ctrl-C (store/database.h's progress handler) is the user's stop.
    if ((e.getErrorCode() & 0xff) == SQLITE_INTERRUPT && interrupted()) {
        return {k_exit_interrupted, "bootbench: interrupted: " + message};
    }
    if (stayed_locked(e)) {
        return {k_exit_runtime, fmt::format("bootbench: {} ({})", message, k_stayed_locked_advice)};
    }
    return {k_exit_usage, "bootbench: " + message};
}
} // namespace

FailureExit failure_exit(const std::exception_ptr& failure, const std::string& database) {
    try {
        std::rethrow_exception(failure);
    } catch (const RuntimeFailure& e) { // before Error: all three are Errors
        return {k_exit_runtime, fmt::format("bootbench: error: {}", e.what())};
    } catch (const Interrupted& e) {
        return {k_exit_interrupted, fmt::format("bootbench: interrupted: {}", e.what())};
    } catch (const Error& e) {
        return {k_exit_usage, fmt::format("bootbench: error: {}", e.what())};
    } catch (const SQLite::Exception& e) {
        return database_failure_exit(e, database);
    } catch (const std::system_error& e) {
        // The system refused (a directory bootbench may not create, a full disk; filesystem
        // errors are system errors): the environment, as RuntimeFailure.
        return {k_exit_runtime, fmt::format("bootbench: error: {}", e.what())};
    } catch (const std::bad_alloc&) {
        return {k_exit_runtime, "bootbench: error: out of memory"};
    } catch (const std::exception& e) {
        return {k_exit_internal,
                fmt::format("bootbench: internal error: {} (please report this)", e.what())};
    } catch (...) {
        return {k_exit_internal,
                "bootbench: internal error: an exception of unknown type (please report this)"};
    }
}

} // namespace bb
