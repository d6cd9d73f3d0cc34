#pragma once
#include <cstddef>
#include <string>

namespace bb {

// ninja's "smart terminal": on a TTY whose TERM is not dumb, one status line is overwritten in
// place and cleared when done; anywhere else (CI logs, pipes) each update is a plain line, and
// only when `print_plain` asks for it, so logs are not flooded.
class StatusLine {
  public:
    // `plain_every_s`: how often a status becomes a plain line off a terminal.
    explicit StatusLine(double plain_every_s = 60);
    ~StatusLine();
    StatusLine(const StatusLine&) = delete;
    StatusLine& operator=(const StatusLine&) = delete;

    bool smart() const { return m_smart; }
    void set_quiet(bool quiet) { m_quiet = quiet; }
    // On a terminal: replaces the status line. Elsewhere (cron, nohup, CI logs) a status is
    // printed as a plain "progress: …" line when a minute (plain_every_s) has passed since the
    // last one or the start, so a long run shows k/N and its ETA in any log; `print_plain`:
    // always.
    void update(const std::string& text, bool print_plain = false);
    // Prints a permanent line above the status line.
    void print(const std::string& text);
    void clear();

  private:
    bool m_smart = false;
    bool m_quiet = false;
    bool m_dirty = false;
    double m_plain_every_s;
    double m_last_plain = 0; // monotonic seconds of the last plain line (or of construction)
};

bool use_color();

// The width text tables are fitted to: COLUMNS when it holds a sane width (40 to 1000), else the
// width of the terminal on stdout, else 120 (pipes, files and CI logs).
size_t table_width();

} // namespace bb
