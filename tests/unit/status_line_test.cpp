// util/terminal's StatusLine off a terminal (stderr to a file, as under cron, nohup or CI): a
// status becomes a plain "progress:" line once per interval, escaped like every stored string
// (issue 49, item 6: the [k/N] ETA line appeared only on a TTY).
#include "util/terminal.h"

#include <catch2/catch.hpp>
#include <cstdio>
#include <string>
#include <unistd.h>

namespace {
// Runs `body` with stderr going to a temporary file; returns what it wrote.
template <typename Body> std::string stderr_of(Body body) {
    std::FILE* file = std::tmpfile();
    REQUIRE(file != nullptr);
    std::fflush(stderr);
    const int saved = dup(STDERR_FILENO);
    dup2(fileno(file), STDERR_FILENO);
    body();
    std::fflush(stderr);
    dup2(saved, STDERR_FILENO);
    close(saved);
    std::string text;
    std::rewind(file);
    for (int c = std::fgetc(file); c != EOF; c = std::fgetc(file)) {
        text.push_back(static_cast<char>(c));
    }
    std::fclose(file);
    return text;
}
} // namespace

TEST_CASE("status line: off a terminal, a status is a plain progress line once per interval") {
    const std::string every_time = stderr_of([] {
        bb::StatusLine status(0);
        status.update("[1/4] 0 failed, ETA 3m — hz=250 r1");
        status.update("[2/4] \x1b]0;T\x07 r2");
    });
    CHECK(every_time == "progress: [1/4] 0 failed, ETA 3m — hz=250 r1\n"
                        "progress: [2/4] \xEF\xBF\xBD]0;T\xEF\xBF\xBD r2\n");
    const std::string within_the_minute = stderr_of([] {
        bb::StatusLine status; // the default: one a minute, counted from the start
        status.update("[1/4] too soon");
        status.update("shown", true); // print_plain: always, as before
    });
    CHECK(within_the_minute == "shown\n");
}
