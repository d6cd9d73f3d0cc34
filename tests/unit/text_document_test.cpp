#include "report/text_document.h"

#include <catch2/catch.hpp>

namespace {
bb::Table two_by_two() {
    bb::Table table;
    table.headers = {"a", "b"};
    table.right_aligned = {false, true};
    table.rows = {{"x", "1"}, {"y", "22"}};
    return table;
}

std::string document(bb::ReportFormat format) {
    bb::TextDocument doc(format, 100);
    doc.title("title");
    doc.line("* a footnote");
    doc.heading("section");
    doc.table(two_by_two());
    doc.line("statement");
    doc.line("nested", 1);
    doc.line("deeper", 2);
    doc.line("after");
    doc.block("  pre\n");
    doc.part("text part\n", "md part");
    return doc.str();
}
} // namespace

TEST_CASE("text document: one document as aligned text", "[text_document]") {
    CHECK(document(bb::ReportFormat::Text) == "title\n"
                                              "* a footnote\n"
                                              "\n"
                                              "section\n"
                                              "a   b\n"
                                              "x   1\n"
                                              "y  22\n"
                                              "statement\n"
                                              "  nested\n"
                                              "    deeper\n"
                                              "after\n"
                                              "  pre\n"
                                              "text part\n");
}

TEST_CASE("text document: the same document as Markdown", "[text_document]") {
    CHECK(document(bb::ReportFormat::Markdown) == "# title\n\n"
                                                  "\\* a footnote\n\n"
                                                  "## section\n\n"
                                                  "| a | b |\n"
                                                  "| --- | ---: |\n"
                                                  "| x | 1 |\n"
                                                  "| y | 22 |\n"
                                                  "\n"
                                                  "statement\n\n"
                                                  "- nested\n"
                                                  "  - deeper\n"
                                                  "\n"
                                                  "after\n\n"
                                                  "```text\n  pre\n```\n\n"
                                                  "md part\n");
}
