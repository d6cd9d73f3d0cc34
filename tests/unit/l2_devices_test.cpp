#include "guest/l2_devices.h"
#include "util/shell_quote.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

namespace {
std::vector<std::string> names_of(const std::vector<bb::L2Module>& modules) {
    std::vector<std::string> names;
    for (const auto& module : modules) {
        names.emplace_back(module.name);
    }
    return names;
}
} // namespace

TEST_CASE("L2's driver modules come once each, the virtio transport before the drivers",
          "[kvm-io-bus]") {
    // The order is insmod's: each module after those its modinfo `depends` names.
    CHECK(names_of(bb::l2_device_modules({"virtio-blk-pci", "virtio-net-pci", "virtio-blk-pci"})) ==
          std::vector<std::string>{"virtio_ring", "virtio", "virtio_pci_legacy_dev",
                                   "virtio_pci_modern_dev", "virtio_pci", "virtio_blk", "failover",
                                   "net_failover", "virtio_net"});
    CHECK(names_of(bb::l2_device_modules({"virtio-rng-pci"})).back() == "virtio-rng");
    CHECK(bb::l2_device_modules({}).empty());
}

TEST_CASE("only virtio-blk takes queues: virtio-net's hubport has one pair", "[kvm-io-bus]") {
    CHECK(bb::l2_queue_device_names() == std::vector<std::string>{"virtio-blk-pci"});
    CHECK(bb::l2_device_arguments({"virtio-net-pci"}, 4) ==
          bb::l2_device_arguments({"virtio-net-pci"}, std::nullopt));
}

TEST_CASE("every L2 device word is a plain shell word and names its position", "[kvm-io-bus]") {
    std::vector<std::string> all = bb::l2_device_names();
    for (const auto& word : bb::l2_device_arguments(all, 8)) {
        CHECK(bb::shell_quote(word) == word);
    }
    CHECK(bb::l2_device_setup({"virtio-net-pci"}).empty());
    CHECK(bb::l2_device_setup({"virtio-net-pci", "virtio-blk-pci"}) ==
          "dd if=/dev/zero of=/tmp/l2dev1.img bs=1M count=1 2>/dev/null\n");
}
