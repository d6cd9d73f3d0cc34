#include "console/console_monitor.h"
#include "guest/l1_srcu_probes.h"
#include "guest/nested_init_script.h"

#include <catch2/catch.hpp>
#include <string>

namespace {
size_t position(const std::string& text, const std::string& needle) {
    const size_t at = text.find(needle);
    INFO(needle);
    REQUIRE(at != std::string::npos);
    return at;
}
} // namespace

TEST_CASE("L1's /init probes SRCU around an L2 started between its own markers", "[nested]") {
    bb::L2Launch l2;
    l2.smp = 2;
    l2.memory_mb = 512;
    l2.cmdline = "console=ttyAMA0 quiet";
    const std::string init = bb::nested_init_script(l2);

    CHECK(init.rfind("#!/bin/busybox sh\n", 0) == 0);
    const size_t l1_boot = position(init, "BOOTBENCH-MARKER l1-boot-done $up");
    const size_t tracefs = position(init, "mount -t tracefs tracefs $tracing");
    const size_t probes = position(init, bb::l1_srcu_probe_setup());
    // Which I/O-bus kernel L1 is (kallsyms), said before L2's timed span.
    const size_t symbols =
        position(init, "kallsyms=/proc/kallsyms\n" + bb::l1_kvm_io_bus_symbols());
    const size_t awk =
        position(init, "cat > /tmp/srcu-report.awk <<'AWK'\n" + bb::l1_srcu_report_awk() + "AWK\n");
    const size_t before = position(init, "cat $tracing/kprobe_profile > /tmp/srcu-before");
    const size_t clear = position(init, "echo > $tracing/trace");
    const size_t start = position(init, "BOOTBENCH-MARKER l2-start $up");
    const size_t qemu = position(init, "LD_LIBRARY_PATH=/lib/aarch64-linux-gnu "
                                       "/usr/bin/qemu-system-aarch64 -enable-kvm "
                                       "-M virt,gic-version=3 -cpu host -smp 2 -m 512 "
                                       "-bios /l2/QEMU_EFI.fd -display none -serial stdio "
                                       "-monitor none -nic none -no-reboot -kernel /l2/Image "
                                       "-initrd /l2/initrd.cpio.gz "
                                       "-append 'console=ttyAMA0 quiet' </dev/null");
    const size_t exit = position(init, "BOOTBENCH-MARKER l2-exit $up");
    const size_t after = position(init, "cat $tracing/kprobe_profile > /tmp/srcu-after");
    const size_t stop = position(init, "echo 0 > $tracing/tracing_on");
    const size_t report =
        position(init, "cat $tracing/trace 2>/dev/null | awk -v width=50 -f /tmp/srcu-report.awk "
                       "/tmp/srcu-before /tmp/srcu-after -\n");
    const size_t end = position(init, "BOOTBENCH-MARKER l1-end $up");
    const size_t off = position(init, "poweroff -f");
    CHECK(l1_boot < tracefs);
    CHECK(tracefs < probes);
    CHECK(probes < symbols);
    CHECK(symbols < start);
    CHECK(probes < awk);
    CHECK(awk < before);
    CHECK(before < clear); // the trace holds L2's run only; the counts are differences
    CHECK(clear < start);
    CHECK(start < qemu);
    CHECK(qemu < exit);
    CHECK(exit < after);
    CHECK(after < stop);
    CHECK(stop < report);
    CHECK(report < end);
    CHECK(end < off);
    CHECK(init.find("pflash") == std::string::npos);
}

TEST_CASE("the report awk cannot end its own here-document early", "[nested]") {
    const std::string awk = "\n" + bb::l1_srcu_report_awk();
    CHECK(awk.find("\nAWK\n") == std::string::npos);
    CHECK(awk.back() == '\n');
}

TEST_CASE("the metric line L1 prints is one the console monitor parses", "[nested]") {
    bb::ConsoleMonitor monitor;
    monitor.feed("BOOTBENCH-METRIC srcu_expedited_calls 1080 count\r\n", 1.0);
    REQUIRE(monitor.metrics().size() == 1);
    CHECK(monitor.metrics()[0].name == bb::k_srcu_expedited_metric);
    CHECK(monitor.metrics()[0].value == 1080);
    CHECK(monitor.metrics()[0].unit == "count");
}

TEST_CASE("pflash mode gives L2 a padded read-only firmware and a writable variable store",
          "[nested]") {
    bb::L2Launch l2;
    l2.firmware_mode = bb::L2Firmware::Pflash;
    const std::string init = bb::nested_init_script(l2);
    const size_t pad = position(init, "dd if=/dev/zero of=/tmp/efi-code.fd bs=1M count=64");
    const size_t copy = position(init, "dd if=/l2/QEMU_EFI.fd of=/tmp/efi-code.fd conv=notrunc");
    const size_t vars = position(init, "dd if=/dev/zero of=/tmp/efi-vars.fd bs=1M count=64");
    const size_t start = position(init, "BOOTBENCH-MARKER l2-start");
    CHECK(pad < copy);
    CHECK(vars < start); // preparing the images is not part of L2's boot
    CHECK(bb::l2_qemu_command(l2).find(
              "-drive if=pflash,format=raw,unit=0,readonly=on,file=/tmp/efi-code.fd "
              "-drive if=pflash,format=raw,unit=1,file=/tmp/efi-vars.fd -display none") !=
          std::string::npos);
    CHECK(bb::l2_qemu_command(l2).find("-bios") == std::string::npos);
}

TEST_CASE("a variable-store template is padded to the flash before the span and given with -bios",
          "[nested]") {
    bb::L2Launch l2;
    l2.varstore_template = std::string(bb::k_l2_varstore_template);
    const std::string init = bb::nested_init_script(l2);
    const size_t zeros = position(init, "dd if=/dev/zero of=/tmp/efi-vars.fd bs=1M count=64");
    const size_t copy =
        position(init, "dd if=/l2/efi-vars-template.fd of=/tmp/efi-vars.fd conv=notrunc");
    CHECK(zeros < copy);
    CHECK(copy < position(init, "BOOTBENCH-MARKER l2-start"));
    CHECK(init.find("efi-code.fd") == std::string::npos); // -bios: no firmware flash image
    CHECK(bb::l2_qemu_command(l2).find("-bios /l2/QEMU_EFI.fd -drive "
                                       "if=pflash,format=raw,unit=1,file=/tmp/efi-vars.fd ") !=
          std::string::npos);

    l2.firmware_mode = bb::L2Firmware::Pflash; // the template replaces pflash mode's zeros too
    const std::string pflash = bb::nested_init_script(l2);
    CHECK(position(pflash, "dd if=/dev/zero of=/tmp/efi-vars.fd") <
          position(pflash, "dd if=/l2/efi-vars-template.fd of=/tmp/efi-vars.fd conv=notrunc"));
}

TEST_CASE("an L2 command line is one shell word whatever it holds", "[nested]") {
    bb::L2Launch l2;
    l2.cmdline = "console=ttyAMA0 it's";
    CHECK(bb::l2_qemu_command(l2).find("-append 'console=ttyAMA0 it'\\''s'") != std::string::npos);
}

TEST_CASE("the calls probe set leaves out the probes that fire per reader check and pass",
          "[nested]") {
    const std::string all = bb::l1_srcu_probe_setup(bb::L1Probes::All);
    const std::string calls = bb::l1_srcu_probe_setup(bb::L1Probes::Calls);
    for (const char* event : {"probe srcu_exp ", "probe srcu_exp_ret ", "probe srcu_gp_start ",
                              "probe srcu_invoke_cbs ", "probe srcu_delay_timer "}) {
        CHECK(all.find(event) != std::string::npos);
        CHECK(calls.find(event) != std::string::npos);
    }
    for (const char* event : {"probe srcu_check ", "probe process_srcu ", "probe srcu_gp_queue "}) {
        CHECK(all.find(event) != std::string::npos);
        CHECK(calls.find(event) == std::string::npos);
    }
    bb::L2Launch l2;
    l2.probes = bb::L1Probes::Calls;
    CHECK(bb::nested_init_script(l2).find("probe srcu_check ") == std::string::npos);
}

TEST_CASE("L2's devices follow -nic none, each word quoted, with num-queues on virtio-blk only",
          "[nested][kvm-io-bus]") {
    bb::L2Launch l2;
    l2.devices = {"virtio-blk-pci", "virtio-net-pci", "virtio-rng-pci"};
    l2.queues = 2;
    CHECK_THAT(bb::l2_qemu_command(l2),
               Catch::Contains("-monitor none -nic none "
                               "-drive if=none,file=/tmp/l2dev0.img,format=raw,id=l2dev0 "
                               "-device virtio-blk-pci,drive=l2dev0,num-queues=2 "
                               "-netdev hubport,id=l2dev1,hubid=0 "
                               "-device virtio-net-pci,netdev=l2dev1,romfile= "
                               "-device virtio-rng-pci,id=l2dev2 -no-reboot -kernel /l2/Image"));
    l2.queues.reset(); // qemu's default: one queue per vCPU
    CHECK_THAT(bb::l2_qemu_command(l2),
               Catch::Contains("-device virtio-blk-pci,drive=l2dev0 -netdev"));
    CHECK_THAT(bb::l2_qemu_command(bb::L2Launch{}),
               Catch::Contains("-nic none -no-reboot")); // no devices: as before
}

TEST_CASE("each virtio-blk gets its own small disk in L1's RAM before L2's span",
          "[nested][kvm-io-bus]") {
    bb::L2Launch l2;
    l2.devices = {"virtio-blk-pci", "virtio-rng-pci", "virtio-blk-pci"};
    const std::string init = bb::nested_init_script(l2);
    const size_t first = position(init, "dd if=/dev/zero of=/tmp/l2dev0.img bs=1M count=1");
    const size_t second = position(init, "dd if=/dev/zero of=/tmp/l2dev2.img bs=1M count=1");
    CHECK(first < second);
    CHECK(second < position(init, "BOOTBENCH-MARKER l2-start"));
    CHECK(init.find("/tmp/l2dev1.img") == std::string::npos); // virtio-rng needs no backing
    CHECK_THAT(bb::l2_qemu_command(l2), Catch::Contains("-device virtio-blk-pci,drive=l2dev2"));
}
