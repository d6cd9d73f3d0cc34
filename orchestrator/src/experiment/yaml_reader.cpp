#include "experiment/yaml_reader.h"

#include "util/did_you_mean.h"
#include "util/error.h"
#include "util/utf8.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <limits>
#include <yaml-cpp/depthguard.h>

namespace bb {

std::string in_quotes(std::string_view text) {
    std::string quoted = "\"";
    for (const char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        if (c == '\n') {
            quoted += "\\n";
        } else if (c == '\t') {
            quoted += "\\t";
        } else if (byte < 0x20 || byte == 0x7f) {
            quoted += fmt::format("\\x{:02x}", byte);
        } else {
            quoted += c;
        }
    }
    return quoted + "\"";
}

std::string comma_list(const std::vector<std::string>& items) {
    std::string text;
    for (const auto& item : items) {
        text += (text.empty() ? "" : ", ") + item;
    }
    return text;
}

std::string describe(const YAML::Node& node) {
    switch (node.Type()) {
    case YAML::NodeType::Scalar:
        return in_quotes(node.Scalar());
    case YAML::NodeType::Sequence:
        return "a list";
    case YAML::NodeType::Map:
        return "a mapping";
    default:
        return "nothing";
    }
}

std::optional<double> parse_number(const std::string& text) {
    double value = 0;
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (ec != std::errc() || ptr != end || text.empty() || !std::isfinite(value)) {
        return std::nullopt;
    }
    return value;
}

void YamlReader::fail(const YAML::Mark& mark, const std::string& message) const {
    // Nodes built without a position (an empty document) report the file's start.
    const int line = mark.line >= 0 ? mark.line + 1 : 1;
    const int column = mark.column >= 0 ? mark.column + 1 : 1;
    throw Error(fmt::format("{}:{}:{}: {}", m_file, line, column, message));
}

Entries YamlReader::mapping(const YAML::Node& node, const std::string& label,
                            const std::vector<std::string>& allowed) const {
    if (!node.IsMap()) {
        fail(node, fmt::format("{}: expected a mapping with keys {}, got {}", label,
                               comma_list(allowed), describe(node)));
    }
    Entries entries;
    for (const auto& item : node) {
        if (!item.first.IsScalar()) {
            fail(item.first, fmt::format("expected a key name, got {}", describe(item.first)));
        }
        const std::string key = item.first.Scalar();
        if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
            const auto suggestion = did_you_mean(key, allowed);
            fail(item.first, suggestion ? fmt::format("unknown key {} (did you mean {}?)",
                                                      in_quotes(key), in_quotes(*suggestion))
                                        : fmt::format("unknown key {} (expected one of: {})",
                                                      in_quotes(key), comma_list(allowed)));
        }
        // yaml-cpp keeps both copies of a repeated key; silently taking one would hide a typo.
        if (!entries.emplace(key, Entry{item.first, item.second}).second) {
            fail(item.first, fmt::format("duplicate key {}", in_quotes(key)));
        }
    }
    return entries;
}

const Entry& YamlReader::required(const Entries& entries, const YAML::Node& map,
                                  const std::string& label, const std::string& key,
                                  const std::string& expected) const {
    const auto found = entries.find(key);
    if (found == entries.end()) {
        fail(map, fmt::format("{}missing required key {} (expected {})",
                              label.empty() ? "" : label + ": ", in_quotes(key), expected));
    }
    return found->second;
}

std::string YamlReader::string_of(const YAML::Node& node, const std::string& key) const {
    if (!node.IsScalar()) {
        fail(node, fmt::format("{}: expected a string, got {}", key, describe(node)));
    }
    return node.Scalar();
}

long long YamlReader::integer_of(const YAML::Node& node, const std::string& key, long long minimum,
                                 long long maximum) const {
    if (!node.IsScalar()) {
        fail(node, fmt::format("{}: expected an integer, got {}", key, describe(node)));
    }
    const auto value = parse_integer<long long>(node.Scalar());
    if (!value) {
        fail(node, fmt::format("{}: expected an integer, got {}", key, describe(node)));
    }
    if (*value < minimum) {
        fail(node, fmt::format("{}: expected an integer >= {}, got {}", key, minimum, *value));
    }
    if (*value > std::min<long long>(maximum, std::numeric_limits<int>::max())) {
        fail(node,
             fmt::format("{}: expected an integer <= {}, got {}", key,
                         std::min<long long>(maximum, std::numeric_limits<int>::max()), *value));
    }
    return *value;
}

namespace {
struct BoundedWalk {
    const std::function<void(const YAML::Node&)>& on_scalar;
    size_t budget = k_max_yaml_nodes;
    std::optional<YamlBreach> breach;

    void visit(const YAML::Node& node, size_t depth) {
        if (breach) {
            return;
        }
        // Aliases are walked as often as they are used: a 408-byte file of nested anchors
        // expands to billions of nodes (issue 32, item 6). No experiment or fleet file comes
        // near either bound.
        if (budget == 0) {
            breach = YamlBreach{node.Mark(), fmt::format("the file expands to more than {} YAML "
                                                         "nodes (anchors and aliases nested in "
                                                         "each other?); write the values out",
                                                         k_max_yaml_nodes)};
            return;
        }
        if (depth > k_max_yaml_depth) {
            breach = YamlBreach{node.Mark(), fmt::format("the file nests more than {} levels deep "
                                                         "(an alias used inside its own anchor?)",
                                                         k_max_yaml_depth)};
            return;
        }
        --budget;
        if (node.IsScalar()) {
            on_scalar(node);
        } else if (node.IsSequence()) {
            for (const auto& item : node) {
                visit(item, depth + 1);
            }
        } else if (node.IsMap()) {
            for (const auto& item : node) {
                visit(item.first, depth + 1);
                visit(item.second, depth + 1);
            }
        }
    }
};
} // namespace

std::optional<YamlBreach>
walk_yaml_bounded(const YAML::Node& root, const std::function<void(const YAML::Node&)>& on_scalar) {
    BoundedWalk walk{on_scalar, k_max_yaml_nodes, std::nullopt};
    walk.visit(root, 0);
    return walk.breach;
}

YAML::Node YamlReader::load(std::string_view text, const std::string& kind) const {
    // Names and values end up in JSON (cell params, build ids), which must be UTF-8; YAML
    // requires it too. Found by fuzz_experiment: a stray byte used to abort in the JSON writer.
    if (const auto bad = first_invalid_utf8(text)) {
        YAML::Mark mark;
        mark.pos = static_cast<int>(*bad);
        mark.line = static_cast<int>(std::count(text.begin(), text.begin() + *bad, '\n'));
        const size_t line_start = text.rfind('\n', *bad == 0 ? 0 : *bad - 1);
        mark.column = static_cast<int>(
            line_start == std::string_view::npos || *bad == 0 ? *bad : *bad - line_start - 1);
        fail(mark, fmt::format("invalid UTF-8 (byte 0x{:02x}): {} file is UTF-8 text",
                               static_cast<unsigned char>(text[*bad]), kind));
    }
    YAML::Node root;
    try {
        root = YAML::Load(std::string(text));
    } catch (const YAML::DeepRecursion& e) {
        // yaml-cpp says "bad file" here, which tells the user nothing.
        fail(e.mark, "invalid YAML: nested too deeply (" + kind + " needs a few levels)");
    } catch (const YAML::Exception& e) {
        fail(e.mark, "invalid YAML: " + e.msg);
    }
    // yaml-cpp 0.7 decodes the double-quoted escape "\\_" (no-break space) to the raw byte A0,
    // so a file that is valid UTF-8 can still yield a scalar that is not: every scalar is
    // checked after decoding. Found by fuzz_experiment in CI: such a byte aborted the build-id
    // JSON writer.
    const auto breach = walk_yaml_bounded(root, [this](const YAML::Node& scalar) {
        if (const auto bad = first_invalid_utf8(scalar.Scalar())) {
            fail(scalar, fmt::format("invalid UTF-8 after decoding escapes (byte 0x{:02x}); "
                                     "write the character itself or a \\u escape",
                                     static_cast<unsigned char>(scalar.Scalar()[*bad])));
        }
    });
    if (breach) {
        fail(breach->mark, breach->message);
    }
    return root;
}

} // namespace bb
