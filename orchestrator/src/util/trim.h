#pragma once
#include <string>

namespace bb {
// The text without its trailing newlines and spaces: a command's one-line answer
// (`apt-cache policy`, `gcc --version`) as a value.
std::string trimmed(std::string text);
} // namespace bb
