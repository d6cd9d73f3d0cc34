#include "util/checklist.h"

#include <fmt/format.h>

namespace bb {

std::string Checklist::add(bool ok, Need need, std::string_view what, std::string_view detail) {
    std::string_view mark = "ok";
    std::string_view status = "ok";
    if (!ok && need == Need::Required) {
        ++m_problems;
        mark = "--";
        status = "problem";
    } else if (!ok) {
        ++m_notes;
        mark = "note";
        status = "note";
    }
    m_entries.push_back({m_section, std::string(status), std::string(what), std::string(detail)});
    return fmt::format("  {:<4} {:<22} {}\n", mark, what, detail);
}

std::string Checklist::summary() const {
    const std::string notes =
        m_notes == 0 ? "" : fmt::format(" ({} note{})", m_notes, m_notes == 1 ? "" : "s");
    if (m_problems == 0) {
        return fmt::format("All required checks passed{}.", notes);
    }
    return fmt::format("{} problem(s) found{}.", m_problems, notes);
}

} // namespace bb
