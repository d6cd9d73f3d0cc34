#pragma once
#include <string>
#include <string_view>

namespace bb {

// Removes terminal noise from a serial stream: ANSI CSI/OSC escape sequences (UEFI firmware
// paints its screen with them), carriage returns and other control bytes except newline and tab.
// Stateful, because an escape sequence may be split across two reads.
class AnsiFilter {
  public:
    std::string filter(std::string_view bytes);

  private:
    enum class State { Text, Escape, Intermediate, Csi, Osc, OscEscape };
    State m_state = State::Text;
};

} // namespace bb
