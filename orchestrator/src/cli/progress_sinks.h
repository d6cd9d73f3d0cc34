#pragma once
#include "cli/commands.h"
#include "pipeline/experiment_runner.h"
#include "util/terminal.h"

#include <functional>
#include <string>

namespace bb {

using TextSink = std::function<void(const std::string&)>;

// How every command shows progress: transient text on the status line (smart terminals only),
// notes as permanent lines, finished samples as one line each in plain logs (or --verbose)
// and as status text on a terminal. --quiet silences all three.
inline TextSink status_sink(StatusLine& status) {
    return [&status](const std::string& text) { status.update(text); };
}

inline TextSink note_sink(StatusLine& status, const GlobalOptions& global) {
    return [&status, &global](const std::string& text) {
        if (!global.quiet) {
            status.print(text);
        }
    };
}

inline TextSink sample_sink(StatusLine& status, const GlobalOptions& global) {
    return [&status, &global](const std::string& text) {
        if (global.quiet) {
            return;
        }
        if (global.verbose || !status.smart()) {
            status.print(text);
        } else {
            status.update(text);
        }
    };
}

inline RunProgress run_progress(StatusLine& status, const GlobalOptions& global) {
    return {status_sink(status), note_sink(status, global), sample_sink(status, global)};
}

} // namespace bb
