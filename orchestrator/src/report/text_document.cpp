#include "report/text_document.h"

#include "report/markdown_table.h"

namespace bb {

TextDocument::TextDocument(ReportFormat format, size_t width)
    : m_markdown(format == ReportFormat::Markdown), m_width(width) {}

void TextDocument::end_list() {
    if (m_in_list) {
        m_out += "\n";
        m_in_list = false;
    }
}

void TextDocument::title(const std::string& text) {
    end_list();
    m_out += m_markdown ? "# " + text + "\n\n" : text + "\n";
}

void TextDocument::heading(const std::string& text) {
    end_list();
    m_out += m_markdown ? "## " + text + "\n\n" : "\n" + text + "\n";
}

void TextDocument::table(const Table& table) {
    end_list();
    m_out += m_markdown ? render_markdown(table) + "\n" : render_aligned(table, m_width);
}

void TextDocument::line(const std::string& text, int indent) {
    if (!m_markdown) {
        m_out += std::string(static_cast<size_t>(2 * indent), ' ') + text + "\n";
        return;
    }
    if (indent == 0) {
        end_list();
        // A leading "*" or "-" is the text's own (a footnote mark), not a list.
        const bool marker = !text.empty() && (text[0] == '*' || text[0] == '-' || text[0] == '+');
        m_out += (marker ? "\\" : "") + text + "\n\n";
        return;
    }
    m_out += std::string(static_cast<size_t>(2 * (indent - 1)), ' ') + "- " + text + "\n";
    m_in_list = true;
}

void TextDocument::block(const std::string& text) {
    end_list();
    m_out += m_markdown ? "```text\n" + text + "```\n\n" : text;
}

void TextDocument::part(const std::string& text, const std::string& markdown) {
    end_list();
    m_out += m_markdown ? markdown + "\n" : text;
}

std::string TextDocument::str() const {
    return m_markdown ? m_out : wrap_long_lines(m_out, m_width);
}

} // namespace bb
