#include "util/trim.h"

namespace bb {
std::string trimmed(std::string text) {
    while (!text.empty() && (text.back() == '\n' || text.back() == ' ' || text.back() == '\t' ||
                             text.back() == '\r')) {
        text.pop_back();
    }
    return text;
}
} // namespace bb
