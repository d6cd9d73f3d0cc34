#include "vm/libvirt_uri.h"

#include "util/error.h"

#include <algorithm>
#include <cctype>
#include <fmt/format.h>
#include <vector>

namespace bb {

namespace {
std::string lower(std::string_view text) {
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

int hex_value(char c) {
    if (c >= '0' && c <= '9') {
        return c - '0';
    }
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

// libvirt unescapes parameter names (`comm%61nd` is `command`), so the check must as well.
std::string percent_decode(std::string_view text) {
    std::string out;
    for (size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '%' && i + 2 < text.size() && hex_value(text[i + 1]) >= 0 &&
            hex_value(text[i + 2]) >= 0) {
            out += static_cast<char>(hex_value(text[i + 1]) * 16 + hex_value(text[i + 2]));
            i += 2;
        } else {
            out += text[i];
        }
    }
    return out;
}

struct Param {
    std::string name; // decoded, lower case (libvirt compares names case-insensitively)
    std::string value;
};

// The query's parameters; libvirt separates them with '&' or ';'.
std::vector<Param> query_params(std::string_view uri) {
    std::vector<Param> params;
    const size_t question = uri.find('?');
    if (question == std::string_view::npos) {
        return params;
    }
    std::string_view query = uri.substr(question + 1);
    query = query.substr(0, query.find('#'));
    while (!query.empty()) {
        const size_t end = query.find_first_of("&;");
        const std::string_view item = query.substr(0, end);
        const size_t equals = item.find('=');
        params.push_back({lower(percent_decode(item.substr(0, equals))),
                          equals == std::string_view::npos
                              ? std::string()
                              : percent_decode(item.substr(equals + 1))});
        query = end == std::string_view::npos ? std::string_view() : query.substr(end + 1);
    }
    return params;
}

// `qemu+ssh` -> `ssh`; "" without a transport.
std::string transport_of(std::string_view uri) {
    const std::string_view scheme = uri.substr(0, uri.find("://"));
    const size_t plus = scheme.find('+');
    return plus == std::string_view::npos ? std::string() : lower(scheme.substr(plus + 1));
}

bool is_ssh(const std::string& transport) {
    return transport == "ssh" || transport == "libssh" || transport == "libssh2";
}

// [user@]host of the URI: ssh reads a word starting with '-' as one of its options.
std::string_view authority_of(std::string_view uri) {
    const size_t start = uri.find("://");
    if (start == std::string_view::npos) {
        return {};
    }
    const std::string_view rest = uri.substr(start + 3);
    return rest.substr(0, rest.find_first_of("/?#"));
}
} // namespace

std::string uri_program_reason(std::string_view uri) {
    const std::string transport = transport_of(uri);
    const std::vector<Param> params = query_params(uri);
    if (transport == "ext") {
        const auto command = std::find_if(params.begin(), params.end(),
                                          [](const Param& p) { return p.name == "command"; });
        return command == params.end()
                   ? std::string("transport \"ext\" executes a program on this machine")
                   : fmt::format("transport \"ext\" executes command={} on this machine",
                                 command->value);
    }
    for (const auto& param : params) {
        if (param.name == "command" || param.name == "netcat") {
            return fmt::format("parameter {}={} names a program to run", param.name, param.value);
        }
        if (param.name == "socket" && is_ssh(transport)) {
            return fmt::format("parameter socket={} becomes part of the shell command ssh runs "
                               "on the remote host",
                               param.value);
        }
    }
    const std::string_view authority = authority_of(uri);
    const size_t at = authority.find('@');
    const std::string_view host =
        at == std::string_view::npos ? authority : authority.substr(at + 1);
    if (is_ssh(transport) && (authority.rfind('-', 0) == 0 || host.rfind('-', 0) == 0)) {
        return fmt::format("\"{}\" starts with '-', which ssh reads as an option", authority);
    }
    return {};
}

void refuse_uri_programs(std::string_view uri, bool allowed) {
    const std::string reason = uri_program_reason(uri);
    if (allowed || reason.empty()) {
        return;
    }
    throw Error(fmt::format("libvirt URI \"{}\" makes libvirt run a program: {}. Refused, as a "
                            "URI from a file could run anything as this user; if you trust it, "
                            "set allow_uri_programs: true on that host (hosts list) or pass "
                            "--allow-uri-programs (boot --libvirt)",
                            uri, reason));
}

} // namespace bb
