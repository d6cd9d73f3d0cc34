#include "store/sql_value.h"

#include <SQLiteCpp/SQLiteCpp.h>
#include <fmt/format.h>

namespace bb {

std::string SqlValue::query_text() const {
    switch (kind) {
    case Kind::Null:
        return "NULL";
    case Kind::Integer:
        return std::to_string(integer);
    case Kind::Real:
        return fmt::format("{}", real);
    case Kind::Text:
        return text;
    case Kind::Blob:
        return fmt::format("<blob {} bytes>", bytes);
    }
    return {};
}

std::string SqlValue::label() const {
    return kind == Kind::Null ? "(none)" : query_text();
}

bool SqlValue::operator==(const SqlValue& other) const {
    if (kind != other.kind) {
        return false;
    }
    switch (kind) {
    case Kind::Null:
        return true;
    case Kind::Integer:
        return integer == other.integer;
    case Kind::Real:
        return real == other.real;
    case Kind::Text:
        return text == other.text;
    case Kind::Blob:
        return bytes == other.bytes;
    }
    return false;
}

SqlValue sql_value(const SQLite::Column& column) {
    SqlValue value;
    if (column.isInteger()) {
        value.kind = SqlValue::Kind::Integer;
        value.integer = column.getInt64();
    } else if (column.isFloat()) {
        value.kind = SqlValue::Kind::Real;
        value.real = column.getDouble();
    } else if (column.isText()) {
        value.kind = SqlValue::Kind::Text;
        value.text = column.getString();
    } else if (column.isBlob()) {
        value.kind = SqlValue::Kind::Blob;
        value.bytes = column.getBytes();
    }
    return value;
}

SqlValue integer_sql_value(long long value) {
    SqlValue v;
    v.kind = SqlValue::Kind::Integer;
    v.integer = value;
    return v;
}

SqlValue text_sql_value(std::string value) {
    SqlValue v;
    v.kind = SqlValue::Kind::Text;
    v.text = std::move(value);
    return v;
}

} // namespace bb
