#pragma once
#include "store/database.h"

#include <string>

namespace bb {

// A short id of this database (8 hex digits), stable for its whole life and different between
// databases: it names the libvirt domains a run starts, so that clearing one database's
// leftovers on a shared host never touches another database's guests. Derived from what the
// database already holds — the first host it recorded and when, to the millisecond — so no
// schema change is needed. Empty before any host is recorded (nothing has booted yet).
std::string database_id(Database& db);

} // namespace bb
