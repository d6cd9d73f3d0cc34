#include "store/query_sandbox.h"

#include "util/error.h"
#include "util/interrupt.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <fmt/format.h>
#include <string_view>

namespace bb {

namespace {

// Pragmas that only describe the schema, whatever their argument.
constexpr std::array<std::string_view, 6> k_reading_pragmas = {
    "table_info", "table_xinfo", "index_list", "index_info", "index_xinfo", "foreign_key_list"};

// Functions that reach outside the database (files, extensions) when the library has them.
constexpr std::array<std::string_view, 5> k_denied_functions = {
    "load_extension", "readfile", "writefile", "edit", "fts3_tokenizer"};

// How often, in virtual-machine instructions, the deadline is checked (about a millisecond).
constexpr int k_progress_interval = 10'000;

bool listed(std::string_view name, const auto& list) {
    std::string lower(name);
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return std::find(list.begin(), list.end(), lower) != list.end();
}

std::string upper(const char* text) {
    std::string out = text ? text : "";
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    return out;
}

struct FixedRefusal {
    int action;
    const char* text;
};
constexpr std::array<FixedRefusal, 6> k_fixed_refusals = {{
    {SQLITE_ATTACH, "ATTACH is not allowed"},
    {SQLITE_DETACH, "DETACH is not allowed"},
    {SQLITE_SAVEPOINT, "SAVEPOINT is not allowed"},
    {SQLITE_INSERT, "INSERT is not allowed"},
    {SQLITE_UPDATE, "UPDATE is not allowed"},
    {SQLITE_DELETE, "DELETE is not allowed"},
}};

// Empty when the action only reads; else what is refused, as the message names it.
std::string refusal_of(int action, const char* arg1, const char* arg2) {
    const std::string_view first = arg1 ? arg1 : "";
    switch (action) {
    case SQLITE_SELECT:
    case SQLITE_READ:
    case SQLITE_RECURSIVE:
        return {};
    case SQLITE_FUNCTION:
        return listed(arg2 ? arg2 : "", k_denied_functions)
                   ? fmt::format("the function {}() is not allowed", arg2)
                   : std::string();
    case SQLITE_PRAGMA:
        return listed(first, k_reading_pragmas) ? std::string()
                                                : fmt::format("PRAGMA {} is not allowed", first);
    case SQLITE_TRANSACTION:
        return fmt::format("{} is not allowed", upper(arg1));
    case SQLITE_INSERT:
    case SQLITE_UPDATE:
    case SQLITE_DELETE:
        // CREATE, DROP and ALTER are first seen as a write to the schema table.
        if (first.starts_with("sqlite_")) {
            return "writing the schema is not allowed (CREATE, DROP, ALTER, and the table-valued "
                   "pragma_…() functions; PRAGMA table_info(T) reads a table's columns)";
        }
        break;
    default:
        break;
    }
    for (const auto& fixed : k_fixed_refusals) {
        if (fixed.action == action) {
            return fixed.text;
        }
    }
    // REINDEX, ANALYZE and whatever SQLite adds later.
    return "a statement that changes the database is not allowed";
}

} // namespace

QuerySandbox::QuerySandbox(sqlite3* handle, const QueryLimits& limits)
    : m_handle(handle), m_limits(limits),
      m_deadline(std::chrono::steady_clock::now() + limits.time),
      m_previous_heap_limit(sqlite3_hard_heap_limit64(limits.memory_bytes)) {
    sqlite3_set_authorizer(m_handle, &QuerySandbox::authorize, this);
    sqlite3_progress_handler(m_handle, k_progress_interval, &QuerySandbox::past_deadline, this);
    // One LIKE/GLOB is one step of SQLite's machine, so the progress handler (the time limit) is
    // not called inside it: a long pattern over a long string ran 11.7 s under --time-limit 1.
    // Its cost grows with the pattern's length times the string's (the memory limit bounds the
    // string): a pattern is kept short.
    m_previous_like_limit = sqlite3_limit(m_handle, SQLITE_LIMIT_LIKE_PATTERN_LENGTH, 256);
}

QuerySandbox::~QuerySandbox() {
    sqlite3_progress_handler(m_handle, 0, nullptr, nullptr);
    sqlite3_limit(m_handle, SQLITE_LIMIT_LIKE_PATTERN_LENGTH, m_previous_like_limit);
    sqlite3_set_authorizer(m_handle, nullptr, nullptr);
    sqlite3_hard_heap_limit64(m_previous_heap_limit);
}

int QuerySandbox::authorize(void* self, int action, const char* arg1, const char* arg2,
                            const char* /*database*/, const char* /*trigger*/) {
    std::string refusal = refusal_of(action, arg1, arg2);
    if (refusal.empty()) {
        return SQLITE_OK;
    }
    static_cast<QuerySandbox*>(self)->m_refusal = std::move(refusal);
    return SQLITE_DENY;
}

int QuerySandbox::past_deadline(void* self) {
    auto* sandbox = static_cast<QuerySandbox*>(self);
    sandbox->m_timed_out = std::chrono::steady_clock::now() > sandbox->m_deadline;
    // SIGINT/SIGTERM only set a flag; the statement must notice it too.
    return sandbox->m_timed_out || interrupted() ? 1 : 0;
}

void QuerySandbox::explain_failure(int rc) const {
    const int primary = rc & 0xff;
    // Not only SQLITE_AUTH: a denial inside SQLite's own nested statements (the table-valued
    // pragma_… functions) surfaces as a plain error.
    if (!m_refusal.empty()) {
        throw Error(fmt::format("query refused: {}; bootbench query only reads (SELECT, WITH … "
                                "SELECT, EXPLAIN, PRAGMA table_info and the like)",
                                m_refusal));
    }
    if (primary == SQLITE_INTERRUPT && m_timed_out) {
        throw Error(fmt::format("query stopped after {:g} s: it ran past the time limit; narrow "
                                "it (WHERE, LIMIT) or raise --time-limit",
                                std::chrono::duration<double>(m_limits.time).count()));
    }
    if (primary == SQLITE_INTERRUPT && interrupted()) { // Ctrl-C: exit 130, not a usage error
        throw Interrupted("query stopped before it finished");
    }
    if (primary == SQLITE_NOMEM) {
        throw_memory_exceeded();
    }
}

void QuerySandbox::add_result_bytes(std::size_t bytes) {
    m_result_bytes += bytes;
    if (static_cast<std::int64_t>(m_result_bytes) > m_limits.memory_bytes) {
        throw_memory_exceeded();
    }
}

void QuerySandbox::throw_memory_exceeded() const {
    throw Error(fmt::format("query needs more than {} MiB of memory; narrow it (WHERE, LIMIT) "
                            "or raise --memory-limit",
                            m_limits.memory_bytes >> 20));
}

} // namespace bb
