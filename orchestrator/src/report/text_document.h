#pragma once
// A report written once for both of its plain formats: aligned text for a terminal, Markdown for
// a page or a pull request. Headings, tables, lines (indented lines become nested list items in
// Markdown) and preformatted blocks; the text form wraps at the width, Markdown never does.
#include "report/report_format.h"
#include "report/text_table.h"

#include <cstddef>
#include <string>

namespace bb {

class TextDocument {
  public:
    // `format`: Text or Markdown.
    TextDocument(ReportFormat format, size_t width);

    void title(const std::string& text);   // the document's first line; "# " in Markdown
    void heading(const std::string& text); // a section: a blank line before; "## " in Markdown
    void table(const Table& table);
    // One statement; `indent` > 0 nests it under the line before (two spaces a level in text).
    void line(const std::string& text, int indent = 0);
    // Text laid out by another renderer (an aligned sub-table): as is, fenced in Markdown.
    void block(const std::string& text);
    // A part another renderer lays out in both formats: `text` or `markdown`, as is.
    void part(const std::string& text, const std::string& markdown);

    std::string str() const;

  private:
    void end_list();

    bool m_markdown;
    size_t m_width;
    bool m_in_list = false;
    std::string m_out;
};

} // namespace bb
