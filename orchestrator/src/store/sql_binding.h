#pragma once
// Values bound to a statement whose text is assembled from fixed pieces: the pieces say where a
// `?` goes, the bindings what it holds, in the same order. User input only ever travels as a
// binding.
#include <SQLiteCpp/SQLiteCpp.h>
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace bb {

using SqlBinding = std::variant<std::string, long long>;

inline void bind_all(SQLite::Statement& statement, const std::vector<SqlBinding>& bindings) {
    for (size_t i = 0; i < bindings.size(); ++i) {
        const int index = static_cast<int>(i + 1);
        if (const auto* text = std::get_if<std::string>(&bindings[i])) {
            statement.bind(index, *text);
        } else {
            statement.bind(index, static_cast<int64_t>(std::get<long long>(bindings[i])));
        }
    }
}

// "?, ?, ?" for an IN list of `count` values.
inline std::string sql_placeholders(size_t count) {
    std::string text;
    for (size_t i = 0; i < count; ++i) {
        text += i == 0 ? "?" : ", ?";
    }
    return text;
}

} // namespace bb
