#pragma once
// The virtio devices an L2 guest may be given (`nested.l2_devices`), stated once: the parser
// reads its names, L1's /init makes each device's backing and hands qemu its arguments, and L2's
// image gets the driver modules to load before L2's boot marker. Each device makes KVM I/O-bus
// registrations when the guest's driver sets DRIVER_OK (one ioeventfd per queue, two
// registrations each on PCI; docs/research/kvm-io-bus.md §4), the micro-VM behaviour the
// kvm-io-bus experiments time. Adding a device is one entry in l2_devices.cpp.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bb {

// A guest kernel module and the Kconfig symbol that builds it, to tell a driver built into the
// kernel (nothing to load) from one the kernel lacks.
struct L2Module {
    std::string_view name; // NAME.ko, as insmod takes it
    std::string_view symbol;
};

struct L2Device {
    std::string_view name; // as nested.l2_devices lists it; qemu's -device driver
    // Whether `l2_queues` sets this device's queue count (a backend that has a single queue
    // pair, such as virtio-net's hubport, does not).
    bool takes_queues = false;
    // The guest's modules in load order, the transport's first: Debian's cloud arm64 kernel
    // builds every virtio driver as a module (CONFIG_VIRTIO_PCI=m, CONFIG_VIRTIO_BLK=m, ...).
    std::vector<L2Module> modules;
    // qemu's words for the device called `id` (unique per position in the list).
    std::vector<std::string> (*arguments)(const std::string& id,
                                          std::optional<int> queues) = nullptr;
    // Shell lines making its backing in L1 before L2 starts; nullptr: it needs none.
    std::string (*setup)(const std::string& id) = nullptr;
};

const std::vector<L2Device>& l2_device_table();
const L2Device* find_l2_device(std::string_view name);
// The names, in the table's order, for messages and docs.
std::vector<std::string> l2_device_names();
// The names of the devices `l2_queues` applies to.
std::vector<std::string> l2_queue_device_names();

// The qemu arguments of `devices` (names from the table, in order; a name may repeat), one
// word each, unquoted: backend and -device per device, ids and backing files numbered by
// position. `queues` set: num-queues on each device that takes queues; none: qemu's default.
std::vector<std::string> l2_device_arguments(const std::vector<std::string>& devices,
                                             std::optional<int> queues);

// The shell lines L1's /init runs before L2's timed span to make the devices' backing files
// in L1's RAM (a small raw disk per virtio-blk).
std::string l2_device_setup(const std::vector<std::string>& devices);

// The guest modules `devices` need, each once, in load order.
std::vector<L2Module> l2_device_modules(const std::vector<std::string>& devices);

} // namespace bb
