#include "guest/l2_devices.h"

#include <algorithm>
#include <fmt/format.h>
#include <stdexcept>

namespace bb {

namespace {

// virtio-pci needs the virtio core first; virtio itself needs virtio_ring (modinfo depends).
const std::vector<L2Module> k_virtio_pci{{"virtio_ring", "CONFIG_VIRTIO"},
                                         {"virtio", "CONFIG_VIRTIO"},
                                         {"virtio_pci_legacy_dev", "CONFIG_VIRTIO_PCI_LIB_LEGACY"},
                                         {"virtio_pci_modern_dev", "CONFIG_VIRTIO_PCI_LIB"},
                                         {"virtio_pci", "CONFIG_VIRTIO_PCI"}};

std::vector<L2Module> with_transport(std::vector<L2Module> driver) {
    std::vector<L2Module> modules = k_virtio_pci;
    modules.insert(modules.end(), driver.begin(), driver.end());
    return modules;
}

// A small raw disk: the driver reads its partition table at probe, nothing more.
constexpr int k_disk_mib = 1;

std::string disk_path(const std::string& id) {
    return "/tmp/" + id + ".img";
}

std::vector<std::string> blk_arguments(const std::string& id, std::optional<int> queues) {
    std::string device = "virtio-blk-pci,drive=" + id;
    if (queues) {
        device += fmt::format(",num-queues={}", *queues);
    }
    return {"-drive", fmt::format("if=none,file={},format=raw,id={}", disk_path(id), id), "-device",
            device};
}

std::string blk_setup(const std::string& id) {
    return fmt::format("dd if=/dev/zero of={} bs=1M count={} 2>/dev/null\n", disk_path(id),
                       k_disk_mib);
}

// hubport: a backend without a host network, always in qemu (libslirp is not needed). It has
// one queue pair, so virtio-net ignores `l2_queues`; romfile= because L1's image carries no
// option ROMs (qemu would refuse to start without efi-virtio.rom).
std::vector<std::string> net_arguments(const std::string& id, std::optional<int> /*queues*/) {
    return {"-netdev", fmt::format("hubport,id={},hubid=0", id), "-device",
            fmt::format("virtio-net-pci,netdev={},romfile=", id)};
}

std::vector<std::string> rng_arguments(const std::string& id, std::optional<int> /*queues*/) {
    return {"-device", "virtio-rng-pci,id=" + id};
}

const std::vector<L2Device> k_l2_devices{
    {.name = "virtio-blk-pci",
     .takes_queues = true,
     .modules = with_transport({{"virtio_blk", "CONFIG_VIRTIO_BLK"}}),
     .arguments = blk_arguments,
     .setup = blk_setup},
    {.name = "virtio-net-pci",
     .modules = with_transport({{"failover", "CONFIG_FAILOVER"},
                                {"net_failover", "CONFIG_NET_FAILOVER"},
                                {"virtio_net", "CONFIG_VIRTIO_NET"}}),
     .arguments = net_arguments},
    {.name = "virtio-rng-pci",
     .modules = with_transport({{"virtio-rng", "CONFIG_HW_RANDOM_VIRTIO"}}),
     .arguments = rng_arguments},
};

const L2Device& device_named(const std::string& name) {
    const L2Device* device = find_l2_device(name);
    if (device == nullptr) { // the parser admits table names only
        throw std::logic_error("unknown L2 device " + name);
    }
    return *device;
}

std::string device_id(size_t position) {
    return fmt::format("l2dev{}", position);
}

} // namespace

const std::vector<L2Device>& l2_device_table() {
    return k_l2_devices;
}

const L2Device* find_l2_device(std::string_view name) {
    const auto found = std::find_if(k_l2_devices.begin(), k_l2_devices.end(),
                                    [name](const L2Device& device) { return device.name == name; });
    return found == k_l2_devices.end() ? nullptr : &*found;
}

std::vector<std::string> l2_device_names() {
    std::vector<std::string> names;
    for (const auto& device : k_l2_devices) {
        names.emplace_back(device.name);
    }
    return names;
}

std::vector<std::string> l2_queue_device_names() {
    std::vector<std::string> names;
    for (const auto& device : k_l2_devices) {
        if (device.takes_queues) {
            names.emplace_back(device.name);
        }
    }
    return names;
}

std::vector<std::string> l2_device_arguments(const std::vector<std::string>& devices,
                                             std::optional<int> queues) {
    std::vector<std::string> words;
    for (size_t i = 0; i < devices.size(); ++i) {
        const L2Device& device = device_named(devices[i]);
        const auto own =
            device.arguments(device_id(i), device.takes_queues ? queues : std::nullopt);
        words.insert(words.end(), own.begin(), own.end());
    }
    return words;
}

std::string l2_device_setup(const std::vector<std::string>& devices) {
    std::string lines;
    for (size_t i = 0; i < devices.size(); ++i) {
        const L2Device& device = device_named(devices[i]);
        if (device.setup != nullptr) {
            lines += device.setup(device_id(i));
        }
    }
    return lines;
}

std::vector<L2Module> l2_device_modules(const std::vector<std::string>& devices) {
    std::vector<L2Module> modules;
    for (const auto& name : devices) {
        for (const L2Module& module : device_named(name).modules) {
            if (std::none_of(modules.begin(), modules.end(), [&module](const L2Module& known) {
                    return known.name == module.name;
                })) {
                modules.push_back(module);
            }
        }
    }
    return modules;
}

} // namespace bb
