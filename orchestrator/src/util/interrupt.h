#pragma once
#include <atomic>

namespace bb {

// Set from SIGINT/SIGTERM; long loops poll it and wind down cleanly (guests stopped, the run
// marked interrupted). A second signal restores the default action so a stuck process can
// still be killed with another Ctrl-C.
void install_interrupt_handlers();
bool interrupted();
void reset_interrupted();
// Winds everything down as a first Ctrl-C would, from inside: a run that cannot go on.
void request_interrupt();

} // namespace bb
