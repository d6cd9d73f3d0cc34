#include "store/database_error.h"

#include "util/error.h"

#include <sqlite3.h>

namespace bb {

bool stayed_locked(const SQLite::Exception& e) {
    const int primary = e.getErrorCode() & 0xff;
    return primary == SQLITE_BUSY || primary == SQLITE_LOCKED;
}

void throw_database_error(const SQLite::Exception& e, const std::string& doing,
                          const std::string& advice) {
    const std::string failed = doing + ": " + e.what();
    if (stayed_locked(e)) {
        throw RuntimeFailure(failed + " (" + std::string(k_stayed_locked_advice) + ")");
    }
    throw Error(advice.empty() ? failed : failed + " (" + advice + ")");
}

} // namespace bb
