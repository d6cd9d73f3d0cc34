#pragma once
// The kernel's own clock on a console line: printk's "[    1.234567] " prefix
// (CONFIG_PRINTK_TIME), read by the console monitor and the initcall trace alike.
#include <optional>
#include <string_view>

namespace bb {

// A finite decimal number and nothing else ("nan", "inf", overflow and trailing text: nullopt).
std::optional<double> parse_finite_double(std::string_view text);

// "[    1.234567] ..." -> 1.234567; nullopt when the line has no such prefix.
std::optional<double> printk_time(std::string_view line);

// The text after the prefix ("[    1.234567] calling  x" -> "calling  x"); the line as it is
// when it has none.
std::string_view after_printk_time(std::string_view line);

} // namespace bb
