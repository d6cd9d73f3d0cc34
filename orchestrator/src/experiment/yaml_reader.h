#pragma once
// The YAML reading toolkit bootbench's input files share (experiment files, fleet files): every
// error names the file, line and column and says what was expected and what was found, unknown
// keys get a did-you-mean, repeated keys are refused, and numbers are read strictly.
#include <charconv>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>
#include <yaml-cpp/yaml.h>

namespace bb {

// Nodes a file may expand to, aliases counted each time they are used.
inline constexpr size_t k_max_yaml_nodes = 100000;
// Levels a file may nest. An alias used inside its own anchor (`x: &x [*x]`) makes a node
// that contains itself: infinitely deep, and a recursive walk of it overflowed the stack.
inline constexpr size_t k_max_yaml_depth = 64;

// Where a document breaks the bounds above, and how (a sentence for the user).
struct YamlBreach {
    YAML::Mark mark;
    std::string message;
};
// Walks the document within the bounds, calling `on_scalar` for each scalar; the first breach,
// or nothing. Every reader of YAML that did not come through YamlReader::load (stored
// experiment texts) checks this before it walks or dumps a document.
std::optional<YamlBreach>
walk_yaml_bounded(const YAML::Node& root, const std::function<void(const YAML::Node&)>& on_scalar);

struct Entry {
    YAML::Node key;
    YAML::Node value;
};
using Entries = std::map<std::string, Entry>;

// Control characters are escaped so that a message stays on one line and shows what is there.
std::string in_quotes(std::string_view text);
// What the user wrote, for "expected X, got Y": a quoted scalar, "a list", "a mapping".
std::string describe(const YAML::Node& node);
std::string comma_list(const std::vector<std::string>& items);

// Strict decimal: the whole text, no "0x", no spaces, no fraction.
template <class T> std::optional<T> parse_integer(const std::string& text) {
    T value{};
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (ec != std::errc() || ptr != end || text.empty()) {
        return std::nullopt;
    }
    return value;
}
std::optional<double> parse_number(const std::string& text);

class YamlReader {
  public:
    explicit YamlReader(std::string file_name) : m_file(std::move(file_name)) {}

    [[noreturn]] void fail(const YAML::Mark& mark, const std::string& message) const;
    [[noreturn]] void fail(const YAML::Node& node, const std::string& message) const {
        fail(node.Mark(), message);
    }

    // The document in `text`, refused with a located message when it is not UTF-8 (before
    // and after yaml-cpp decodes escapes), not YAML, or nested too deeply. `kind` names the
    // file for the messages: "an experiment file".
    YAML::Node load(std::string_view text, const std::string& kind) const;

    // A mapping's entries, every key one of `allowed` (else a did-you-mean) and none twice.
    Entries mapping(const YAML::Node& node, const std::string& label,
                    const std::vector<std::string>& allowed) const;
    const Entry& required(const Entries& entries, const YAML::Node& map, const std::string& label,
                          const std::string& key, const std::string& expected) const;
    std::string string_of(const YAML::Node& node, const std::string& key) const;
    long long integer_of(const YAML::Node& node, const std::string& key, long long minimum,
                         long long maximum = std::numeric_limits<int>::max()) const;

    const std::string& file() const { return m_file; }

    std::string m_file;
};

} // namespace bb
