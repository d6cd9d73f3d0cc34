#pragma once
// An owned virStream (console and volume upload streams), freed with virStreamFree.
#include <libvirt/libvirt.h>
#include <memory>

namespace bb {
struct StreamDeleter {
    void operator()(virStreamPtr stream) const { virStreamFree(stream); }
};
using Stream = std::unique_ptr<virStream, StreamDeleter>;
} // namespace bb
