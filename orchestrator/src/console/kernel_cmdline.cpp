#include "console/kernel_cmdline.h"

#include <algorithm>

namespace bb {

namespace {
bool is_space(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

std::string_view strip_quotes(std::string_view text) {
    if (!text.empty() && text.front() == '"') {
        text.remove_prefix(1);
        if (!text.empty() && text.back() == '"') {
            text.remove_suffix(1);
        }
    }
    return text;
}
} // namespace

std::vector<KernelParam> parse_kernel_cmdline(std::string_view cmdline) {
    std::vector<KernelParam> params;
    size_t at = 0;
    while (true) {
        while (at < cmdline.size() && is_space(cmdline[at])) {
            ++at;
        }
        if (at >= cmdline.size()) {
            break;
        }
        bool quoted = false;
        const size_t start = at;
        for (; at < cmdline.size(); ++at) {
            if (cmdline[at] == '"') {
                quoted = !quoted;
            } else if (is_space(cmdline[at]) && !quoted) {
                break;
            }
        }
        const std::string_view word = cmdline.substr(start, at - start);
        if (word == "--") {
            break;
        }
        // `"name=a b"` and `name="a b"` both mean name → `a b`.
        const std::string_view unquoted = strip_quotes(word);
        const size_t equals = unquoted.find('=');
        KernelParam param;
        param.name = std::string(unquoted.substr(0, equals));
        if (equals != std::string_view::npos) {
            param.value = std::string(strip_quotes(unquoted.substr(equals + 1)));
        }
        params.push_back(std::move(param));
    }
    return params;
}

std::string canonical_param_name(std::string_view name) {
    std::string canonical(name);
    std::replace(canonical.begin(), canonical.end(), '-', '_');
    return canonical;
}

} // namespace bb
