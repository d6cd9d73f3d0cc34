#pragma once
// One value as SQLite returned it, typed: what `bootbench query` prints and what reports group
// boots by (store/axis_value.h), so that 100 sorts before 1000 and the text "250" stays apart
// from the integer 250. One type for both: they are the same SQLite cell.
#include <string>

namespace SQLite {
class Column;
}

namespace bb {

struct SqlValue {
    enum class Kind { Null, Integer, Real, Text, Blob };
    Kind kind = Kind::Null;
    long long integer = 0;
    double real = 0;
    std::string text; // Text: the value; Blob: empty (its size is `bytes`)
    long long bytes = 0;

    std::string query_text() const; // as `bootbench query` prints it: NULL, <blob 123 bytes>
    std::string label() const; // as a report names a group: "(none)" for a boot lacking the axis
    bool operator==(const SqlValue& other) const;
};

SqlValue sql_value(const SQLite::Column& column);
// Values made, not read: a group key a report builds itself (a night, a run id, a cell key).
SqlValue integer_sql_value(long long value);
SqlValue text_sql_value(std::string value);

} // namespace bb
