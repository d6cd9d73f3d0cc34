#include "kernel/patch_change.h"

#include <array>
#include <charconv>
#include <string_view>
#include <vector>

namespace bb {

namespace {

std::vector<std::string_view> lines_of(const std::string& bytes) {
    std::vector<std::string_view> lines;
    for (size_t at = 0; at < bytes.size();) {
        size_t end = bytes.find('\n', at);
        end = end == std::string::npos ? bytes.size() : end;
        std::string_view line(bytes.data() + at, end - at);
        if (line.ends_with('\r')) {
            line.remove_suffix(1);
        }
        lines.push_back(line);
        at = end + 1;
    }
    return lines;
}

// "--- a/x\t2024-01-01 …" (diff -u) and "--- a/x" (git) name the same file.
std::string_view without_timestamp(std::string_view header) {
    return header.substr(0, header.find('\t'));
}

// git's extended header lines that change what is applied; `index` lines only restate blobs.
bool is_kept_git_header(std::string_view line) {
    static constexpr std::array<std::string_view, 8> k_kept = {
        "old mode ",    "new mode ",  "deleted file mode ", "new file mode ",
        "rename from ", "rename to ", "copy from ",         "copy to "};
    for (const auto prefix : k_kept) {
        if (line.starts_with(prefix)) {
            return true;
        }
    }
    return false;
}

bool is_number(std::string_view digits, long& value) {
    const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    return !digits.empty() && error == std::errc() && end == digits.data() + digits.size();
}

// "a,b" or "a" (a count of 1) from a hunk header's range: the count, or -1 when malformed.
long range_count(std::string_view range) {
    const auto comma = range.find(',');
    long start = -1;
    long count = 1;
    if (!is_number(range.substr(0, comma), start) ||
        (comma != std::string_view::npos && !is_number(range.substr(comma + 1), count))) {
        return -1;
    }
    return count;
}

struct HunkHeader {
    std::string_view ranges; // "-a,b +c,d"
    long old_lines = -1;
    long new_lines = -1;
};

// "@@ -a,b +c,d @@ function context": the ranges without the context.
HunkHeader parse_hunk_header(std::string_view line) {
    HunkHeader header;
    const auto close = line.find(" @@", 3);
    if (!line.starts_with("@@ -") || close == std::string_view::npos) {
        return header;
    }
    header.ranges = line.substr(3, close - 3);
    const auto space = header.ranges.find(" +");
    if (space == std::string_view::npos) {
        return header;
    }
    header.old_lines = range_count(header.ranges.substr(1, space - 1));
    header.new_lines = range_count(header.ranges.substr(space + 2));
    return header;
}

class ChangeReader {
  public:
    explicit ChangeReader(const std::string& bytes) : m_lines(lines_of(bytes)) {}

    std::string read() {
        while (m_at < m_lines.size()) {
            const auto line = m_lines[m_at];
            if (line.starts_with("--- ") && m_at + 1 < m_lines.size() &&
                m_lines[m_at + 1].starts_with("+++ ")) {
                read_file_diff();
            } else {
                if (line.starts_with("diff --git ")) {
                    m_in_git_header = true;
                } else if (m_in_git_header && is_kept_git_header(line)) {
                    emit(line);
                }
                ++m_at;
            }
        }
        return m_out;
    }

  private:
    void emit(std::string_view line) {
        m_out.append(line);
        m_out += '\n';
    }

    void read_file_diff() {
        m_in_git_header = false;
        emit(without_timestamp(m_lines[m_at]));
        emit(without_timestamp(m_lines[m_at + 1]));
        m_at += 2;
        while (m_at < m_lines.size() && read_hunk()) {
        }
    }

    // One hunk at m_at: its ranges and exactly the lines they count (a message line or a
    // signature after the last hunk is not part of the change). False when m_at is no hunk.
    bool read_hunk() {
        const HunkHeader header = parse_hunk_header(m_lines[m_at]);
        if (header.old_lines < 0 || header.new_lines < 0) {
            return false;
        }
        m_out += "@@ ";
        m_out.append(header.ranges);
        m_out += " @@\n";
        ++m_at;
        long old_left = header.old_lines;
        long new_left = header.new_lines;
        while (m_at < m_lines.size() && (old_left > 0 || new_left > 0 || is_no_newline())) {
            const auto line = m_lines[m_at];
            // A context line whose single space a mailer dropped is still a context line.
            const char kind = line.empty() ? ' ' : line.front();
            if (kind == ' ') {
                --old_left;
                --new_left;
            } else if (kind == '-') {
                --old_left;
            } else if (kind == '+') {
                --new_left;
            } else if (kind != '\\') {
                break;
            }
            emit(line.empty() ? std::string_view(" ") : line);
            ++m_at;
        }
        return true;
    }

    bool is_no_newline() const { return m_lines[m_at].starts_with("\\ "); }

    std::vector<std::string_view> m_lines;
    size_t m_at = 0;
    bool m_in_git_header = false;
    std::string m_out;
};

} // namespace

std::string patch_tree_change(const std::string& bytes) {
    std::string change = ChangeReader(bytes).read();
    return change.empty() ? bytes : change;
}

} // namespace bb
