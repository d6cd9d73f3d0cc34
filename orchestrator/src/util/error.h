#pragma once
// Two kinds of failure, as in ccache: `Error` is something the user can fix (bad flag, missing
// file) and carries a message that says what, where and what to do; anything else escaping to
// main() is a bug or an environment failure and is reported as such.
#include <stdexcept>
#include <string>

namespace bb {

class Error : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

} // namespace bb
