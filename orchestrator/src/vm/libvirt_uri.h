#pragma once
#include <string>
#include <string_view>

namespace bb {

// libvirt URIs that make libvirt run a program the URI chooses. bootbench runs as root on
// shared build hosts and takes URIs from experiment and fleet files, so such a URI must not
// slip in with a file: the `ext` transport executes its `command=` here, and the ssh
// transports run `netcat=` (and a shell command built around `socket=`) on the remote host.
// A host opts in explicitly (`allow_uri_programs: true`, `boot --allow-uri-programs`).

// Why `uri` runs a program of its own choosing, e.g. `transport "ext" executes command=…`;
// "" when it runs only what its transport always runs (ssh itself, for qemu+ssh).
std::string uri_program_reason(std::string_view uri);

// Throws Error naming the URI, the reason and the opt-in, unless `allowed` or the URI runs no
// program of its own.
void refuse_uri_programs(std::string_view uri, bool allowed);

} // namespace bb
