#pragma once
// Kinds of failure, as in ccache: `Error` is something the user can fix (bad flag, missing
// file) and carries a message that says what, where and what to do; `RuntimeFailure` is the
// environment failing a valid request; anything else escaping to main() is a bug.
#include <stdexcept>
#include <string>

namespace bb {

class Error : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// The environment failed while the user's request was fine (a database that stayed locked or
// filled its disk, a guest host lost): exit status 3, with a message that says what to do next.
class RuntimeFailure : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

} // namespace bb
