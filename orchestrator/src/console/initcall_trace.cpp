#include "console/initcall_trace.h"

#include "console/printk_time.h"

#include <algorithm>
#include <charconv>

namespace bb {

namespace {
constexpr size_t k_max_records = 100'000; // a kernel has a few thousand initcalls at most
constexpr size_t k_max_open = 64;         // calls waiting for their return

bool starts_with(std::string_view text, std::string_view prefix) {
    return text.substr(0, prefix.size()) == prefix;
}

bool identifier_character(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// A symbol as the kernel's symbol table holds it ('.' for compiler clones such as foo.isra.0,
// '$' on some toolchains); a module name may also hold '-'. Anything else on the line (control
// characters, spaces) is not a name.
bool symbol_name(std::string_view text) {
    return !text.empty() && text.size() <= 256 && std::all_of(text.begin(), text.end(), [](char c) {
        return identifier_character(c) || c == '.' || c == '$';
    });
}

bool module_name(std::string_view text) {
    return !text.empty() && text.size() <= 64 && std::all_of(text.begin(), text.end(), [](char c) {
        return identifier_character(c) || c == '-';
    });
}

template <typename Integer> std::optional<Integer> whole_number(std::string_view text) {
    Integer value{};
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size()) {
        return std::nullopt;
    }
    return value;
}

// "%pS" of an initcall: "name+0x0/0x48" or "name+0x0/0x48 [module]", then the rest of the line.
struct Symbol {
    std::string name;
    std::string module;
    std::string_view rest;
};

std::optional<Symbol> read_symbol(std::string_view text) {
    const size_t space = std::min(text.find(' '), text.size());
    std::string_view symbol = text.substr(0, space);
    symbol = symbol.substr(0, symbol.find('+'));
    if (!symbol_name(symbol)) {
        return std::nullopt;
    }
    Symbol read{std::string(symbol), "", text.substr(space)};
    if (starts_with(read.rest, " [")) {
        const size_t close = read.rest.find(']');
        const std::string_view module =
            close == std::string_view::npos ? std::string_view() : read.rest.substr(2, close - 2);
        if (!module_name(module)) {
            return std::nullopt;
        }
        read.module = std::string(module);
        read.rest.remove_prefix(close + 1);
    }
    return read;
}
} // namespace

std::string_view to_string(InitcallTraceState state) {
    switch (state) {
    case InitcallTraceState::Complete:
        return "complete";
    case InitcallTraceState::Wrapped:
        return "wrapped";
    case InitcallTraceState::Cut:
        return "cut";
    case InitcallTraceState::Empty:
        return "empty";
    }
    return "unknown";
}

std::optional<InitcallTraceState> InitcallTrace::state() const {
    if (!m_began) {
        return std::nullopt;
    }
    if (!m_ended) {
        return InitcallTraceState::Cut;
    }
    // The boot's first message is stamped 0: a later first line means the ring buffer had
    // already dropped the start of the boot, and with it the earliest initcalls.
    if (!m_first_s || *m_first_s > 0) {
        return InitcallTraceState::Wrapped;
    }
    return m_records.empty() ? InitcallTraceState::Empty : InitcallTraceState::Complete;
}

void InitcallTrace::feed(std::string_view line) {
    if (line == "begin") {
        m_began = true;
        return;
    }
    if (!m_began || m_ended) {
        ++m_malformed; // a dump line outside its begin … end
        return;
    }
    if (line == "end") {
        m_ended = true;
        return;
    }
    if (starts_with(line, "first ")) {
        m_first_s = printk_time(line.substr(6));
        return;
    }
    const auto at = printk_time(line);
    const std::string_view text = after_printk_time(line);
    if (!at) {
        ++m_malformed;
    } else if (starts_with(text, "calling  ")) {
        calling(*at, text.substr(9));
    } else if (starts_with(text, "initcall ")) {
        returned(text.substr(9));
    } else if (starts_with(text, "Run /init as init process")) {
        m_run_init_s = at;
    } else {
        ++m_malformed;
    }
}

void InitcallTrace::calling(double at, std::string_view rest) {
    auto symbol = read_symbol(rest);
    if (!symbol || !starts_with(symbol->rest, " @ ") || m_open.size() >= k_max_open) {
        ++m_malformed;
        return;
    }
    InitcallRecord open;
    open.name = std::move(symbol->name);
    open.module = std::move(symbol->module);
    open.start_s = at;
    m_open.push_back(std::move(open));
}

// "NAME+0x0/0x48 returned 0 after 1866 usecs"
void InitcallTrace::returned(std::string_view rest) {
    auto symbol = read_symbol(rest);
    if (!symbol || !starts_with(symbol->rest, " returned ")) {
        ++m_malformed;
        return;
    }
    std::string_view tail = symbol->rest.substr(10);
    const size_t after = tail.find(" after ");
    const auto value = whole_number<int>(tail.substr(0, after));
    if (after == std::string_view::npos || !value || !tail.ends_with(" usecs")) {
        ++m_malformed;
        return;
    }
    const auto usecs = whole_number<long long>(tail.substr(after + 7, tail.size() - after - 13));
    const auto open = std::find_if(m_open.rbegin(), m_open.rend(), [&symbol](const auto& call) {
        return call.name == symbol->name && call.module == symbol->module;
    });
    if (!usecs || *usecs < 0) {
        ++m_malformed;
    } else if (open == m_open.rend()) {
        ++m_unmatched;
    } else if (m_records.size() < k_max_records) {
        InitcallRecord record = std::move(*open);
        m_open.erase(std::next(open).base());
        record.duration_us = *usecs;
        record.return_value = *value;
        m_records.push_back(std::move(record));
    } else {
        ++m_malformed;
    }
}

} // namespace bb
