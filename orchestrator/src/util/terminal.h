#pragma once
#include <cstddef>
#include <string>

namespace bb {

// ninja's "smart terminal": on a TTY whose TERM is not dumb, one status line is overwritten in
// place and cleared when done; anywhere else (CI logs, pipes) each update is a plain line, and
// only when `print_plain` asks for it, so logs are not flooded.
class StatusLine {
  public:
    StatusLine();
    ~StatusLine();
    StatusLine(const StatusLine&) = delete;
    StatusLine& operator=(const StatusLine&) = delete;

    bool smart() const { return m_smart; }
    void set_quiet(bool quiet) { m_quiet = quiet; }
    void update(const std::string& text, bool print_plain = false);
    // Prints a permanent line above the status line.
    void print(const std::string& text);
    void clear();

  private:
    bool m_smart = false;
    bool m_quiet = false;
    bool m_dirty = false;
};

bool use_color();

// The width text tables are fitted to: COLUMNS when it holds a sane width (40 to 1000), else the
// width of the terminal on stdout, else 120 (pipes, files and CI logs).
size_t table_width();

} // namespace bb
