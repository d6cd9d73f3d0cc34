#pragma once
// The verdict lines of a self-check (`bootbench doctor`). A missing piece the tool needs is a
// problem and fails the check; a missing piece it can do without (KVM on a machine where
// everything runs under TCG) is a note: it is shown, counted and changes no exit status.
#include "util/error.h"

#include <string>
#include <string_view>
#include <vector>

namespace bb {

enum class Need { Required, Optional };

// One verdict line as data (`doctor --json`).
struct ChecklistEntry {
    std::string section; // "qemu", "firmware", …; empty before the first section
    std::string status;  // ok | problem | note
    std::string what;
    std::string detail;
};

class Checklist {
  public:
    // Counts the check and returns its line ("  ok   what   detail\n"), `--` for a problem and
    // `note` for an absent optional piece.
    std::string add(bool ok, Need need, std::string_view what, std::string_view detail);
    // The section the following checks belong to.
    void begin_section(std::string_view name) { m_section = name; }
    const std::vector<ChecklistEntry>& entries() const { return m_entries; }

    int problems() const { return m_problems; }
    int notes() const { return m_notes; }
    // "All required checks passed (1 note)." or "2 problem(s) found (1 note)."
    std::string summary() const;
    // 0 when every required piece works, else 3: a required piece that does not work is the
    // environment failing.
    int exit_status() const { return m_problems == 0 ? k_exit_ok : k_exit_runtime; }

  private:
    int m_problems = 0;
    int m_notes = 0;
    std::string m_section;
    std::vector<ChecklistEntry> m_entries;
};

} // namespace bb
