// Fitting text tables to the screen (report/text_table.h): what every row shares is said once,
// optional columns give way in their order, prose wraps and table rows do not.
#include "report/text_table.h"
#include "util/terminal.h"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <string>

namespace {

bb::Table cells_table() {
    bb::Table table;
    table.headers = {"cell", "n", "median (s)", "excluded"};
    table.right_aligned = {false, true, true, false};
    table.label_columns = 1;
    table.said_once_if_uniform = {false, false, false, true};
    table.leave_out_order = {0, 0, 0, 0};
    table.rows = {{"variant=stock;hz=250;smp=2", "5", "1.900", "-"},
                  {"variant=before;hz=250;smp=2", "5", "2.100", "-"}};
    return table;
}

} // namespace

TEST_CASE("the key parts every row shares are said once above the table", "[text_table]") {
    CHECK(bb::render_aligned(cells_table(), 120) == "same in every row: hz=250; smp=2\n"
                                                    "cell            n  median (s)\n"
                                                    "variant=stock   5       1.900\n"
                                                    "variant=before  5       2.100\n");
}

TEST_CASE("a uniform axis column and a uniform bookkeeping column fold, and - says nothing",
          "[text_table]") {
    bb::Table table;
    table.headers = {"hz", "variant", "n", "failed/loaded used", "excluded"};
    table.right_aligned = {false, false, true, true, false};
    table.label_columns = 2;
    table.said_once_if_uniform = {false, false, false, true, true};
    table.rows = {{"250", "stock", "5", "0/0", "-"}, {"250", "before", "4", "0/0", "-"}};
    CHECK(bb::render_aligned(table, 120) == "same in every row: hz=250; failed/loaded used: 0/0\n"
                                            "variant  n\n"
                                            "stock    5\n"
                                            "before   4\n");
}

TEST_CASE("a single row keeps every column: nothing to factor out", "[text_table]") {
    bb::Table table = cells_table();
    table.rows.pop_back();
    CHECK(bb::render_aligned(table, 120) == "cell                        n  median (s)  excluded\n"
                                            "variant=stock;hz=250;smp=2  5       1.900  -\n");
}

TEST_CASE("a single row too wide for the screen says its said-once columns, then its key, once",
          "[text_table]") {
    bb::Table table = cells_table();
    table.rows.pop_back();
    // 51 columns fit exactly (issue 49 item 4: one-group compare and phases tables printed keys
    // of 60-300 characters, one-comparison verdicts their method beside every row).
    CHECK(bb::render_aligned(table, 51).rfind("cell                        n  median (s)  excl",
                                              0) == 0);
    // One fewer: the said-once column goes first ("-" says nothing) ...
    CHECK(bb::render_aligned(table, 50) == "cell                        n  median (s)\n"
                                           "variant=stock;hz=250;smp=2  5       1.900\n");
    // ... and only when that is not enough, the key keeps its first part.
    CHECK(bb::render_aligned(table, 40) == "same in every row: hz=250; smp=2\n"
                                           "cell           n  median (s)\n"
                                           "variant=stock  5       1.900\n");
}

TEST_CASE("columns give way in their order until the table fits, and are named", "[text_table]") {
    bb::Table table;
    table.headers = {"name", "a", "b", "c"};
    table.right_aligned = {false, false, false, false};
    table.leave_out_order = {0, 1, 2, 0};
    table.rows = {{"x", "aaaaaaaaaa", "bbbbbbbbbb", "cccccccccc"}};
    const std::string wide = bb::render_aligned(table, 200);
    CHECK(wide.find("left out") == std::string::npos);
    CHECK(bb::render_aligned(table, 40).find("left out") == std::string::npos); // exactly 40
    const std::string narrow = bb::render_aligned(table, 39);
    CHECK(narrow.rfind("name  a           c\n", 0) == 0);
    CHECK(narrow.find("left out to fit 39 columns: b (") != std::string::npos);
    const std::string narrowest = bb::render_aligned(table, 10);
    CHECK(narrowest.rfind("name  c\n", 0) == 0);
    CHECK(narrowest.find("left out to fit 10 columns: b, a (") != std::string::npos);
}

TEST_CASE("the shared line wraps between items", "[text_table]") {
    const std::string text = bb::render_aligned(cells_table(), 30);
    CHECK(text.rfind("same in every row: hz=250;\n  smp=2\n", 0) == 0);
}

TEST_CASE("long prose lines wrap at a space, table rows and single words stay whole",
          "[text_table]") {
    CHECK(bb::wrap_long_lines("one two three four\n", 9) == "one two\n  three\n  four\n");
    CHECK(bb::wrap_long_lines("name   value   other\n", 9) == "name   value   other\n");
    CHECK(bb::wrap_long_lines("abcdefghijklmnop\n", 9) == "abcdefghijklmnop\n");
    CHECK(bb::wrap_long_lines("µµµµ µµµµ\n", 9) == "µµµµ µµµµ\n"); // 9 characters, 13 bytes
    CHECK(bb::wrap_long_lines("no newline at the end", 12) == "no newline\n  at the end");
}

TEST_CASE("a cell key wider than the screen breaks after a semicolon", "[text_table]") {
    // A noise warning names its cell by the whole key: it printed 300 columns on one line.
    CHECK(bb::wrap_long_lines("warning: variant=stock;hz=250;smp=2: 3 outliers\n", 20) ==
          "warning:\n  variant=stock;\n  hz=250;smp=2: 3\n  outliers\n");
    CHECK(bb::wrap_long_lines(";abcdefghijklmnop\n", 9) == ";abcdefghijklmnop\n");
}

TEST_CASE("the table width: COLUMNS when sane, else 120 off a terminal", "[text_table]") {
    const char* saved = std::getenv("COLUMNS");
    const std::string before = saved == nullptr ? "" : saved;
    setenv("COLUMNS", "80", 1);
    CHECK(bb::table_width() == 80);
    for (const char* insane : {"abc", "10", "80x", "", "100000"}) {
        setenv("COLUMNS", insane, 1);
        CHECK(bb::table_width() == 120); // unit tests run with stdout off a terminal
    }
    if (saved == nullptr) {
        unsetenv("COLUMNS");
    } else {
        setenv("COLUMNS", before.c_str(), 1);
    }
}
