#pragma once
#include <functional>
#include <string>

namespace bb {

// One line of progress; empty functions are allowed and mean "nobody listens".
using ProgressFn = std::function<void(const std::string&)>;

// Where long work (a kernel build, a run's kernel stage, a boot series) reports itself: a
// transient status line, overwritten by the next, and permanent notes. One shape for all.
struct Progress {
    ProgressFn status; // transient (the status line)
    ProgressFn note;   // a permanent line
};

} // namespace bb
