#pragma once
// What a user's SQL may do on `bootbench query`'s connection. Opening the file read-only does
// not stop ATTACH, PRAGMA assignments or transactions, nor a recursive CTE that runs for hours
// or grows to gigabytes on a shared build host, so while a statement is prepared and stepped an
// authorizer admits only reading, a progress handler enforces a deadline and SQLite's heap is
// capped.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <sqlite3.h>
#include <string>

namespace bb {

struct QueryLimits {
    std::chrono::milliseconds time{std::chrono::seconds(60)};
    std::int64_t memory_bytes = std::int64_t{512} << 20;
};

// Installed for its lifetime on one connection; the destructor removes the authorizer and the
// progress handler and restores the process's previous heap limit.
class QuerySandbox {
  public:
    QuerySandbox(sqlite3* handle, const QueryLimits& limits);
    ~QuerySandbox();
    QuerySandbox(const QuerySandbox&) = delete;
    QuerySandbox& operator=(const QuerySandbox&) = delete;

    // After SQLite returned `rc` (not OK/ROW/DONE): throws Error saying why when the sandbox
    // caused it (a refused action, the deadline, the memory cap), Interrupted when Ctrl-C
    // stopped it; returns otherwise.
    void explain_failure(int rc) const;
    // Rows are kept in memory until printed: they count against the same memory cap. Throws Error.
    void add_result_bytes(std::size_t bytes);

  private:
    static int authorize(void* self, int action, const char* arg1, const char* arg2,
                         const char* database, const char* trigger);
    static int past_deadline(void* self);
    [[noreturn]] void throw_memory_exceeded() const;

    sqlite3* m_handle;
    QueryLimits m_limits;
    std::chrono::steady_clock::time_point m_deadline;
    std::int64_t m_previous_heap_limit;
    int m_previous_like_limit = 0;
    std::size_t m_result_bytes = 0;
    std::string m_refusal; // the last action the authorizer denied, for the message
    bool m_timed_out = false;
};

} // namespace bb
