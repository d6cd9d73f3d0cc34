#include "util/error.h"
#include "util/markup_escape.h"
#include "vm/domain_xml.h"
#include "vm/libvirt_launcher.h"

#include <catch2/catch.hpp>
#include <string>

using bb::Accel;
using bb::Arch;
using bb::QemuSpec;

namespace {
bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

QemuSpec arm64_spec() {
    QemuSpec spec;
    spec.arch = Arch::Arm64;
    spec.kernel = "/k/Image";
    spec.initrd = "/k/initramfs.cpio.gz";
    spec.firmware = "/usr/share/qemu-efi-aarch64/QEMU_EFI.fd";
    spec.cmdline = "quiet";
    return spec;
}
} // namespace

TEST_CASE("xml_escape replaces the five XML specials", "[libvirt]") {
    CHECK(bb::xml_escape("a<b>&'\"c") == "a&lt;b&gt;&amp;&apos;&quot;c");
    CHECK(bb::xml_escape("plain /path_1") == "plain /path_1");
}

TEST_CASE("arm64 domain: TCG, virt, custom max CPU, direct kernel boot with ROM firmware",
          "[libvirt]") {
    const std::string xml = bb::domain_xml(arm64_spec(), "bootbench-7-1");
    CHECK(contains(xml, "<domain type='qemu'>"));
    CHECK(contains(xml, "<name>bootbench-7-1</name>"));
    CHECK(contains(xml, "<memory unit='MiB'>1024</memory>"));
    CHECK(contains(xml, "<vcpu>2</vcpu>"));
    CHECK(contains(xml, "<type arch='aarch64' machine='virt'>hvm</type>"));
    CHECK(contains(xml, "<loader type='rom'>/usr/share/qemu-efi-aarch64/QEMU_EFI.fd</loader>"));
    CHECK(contains(xml, "<kernel>/k/Image</kernel>"));
    CHECK(contains(xml, "<initrd>/k/initramfs.cpio.gz</initrd>"));
    CHECK(contains(xml, "<cmdline>console=ttyAMA0 quiet</cmdline>"));
    CHECK(contains(xml, "<cpu mode='custom' match='exact'><model>max</model></cpu>"));
    CHECK(contains(xml, "<on_reboot>destroy</on_reboot>"));
    CHECK(contains(xml, "<serial type='pty'>"));
    CHECK_FALSE(contains(xml, "<acpi/>")); // libvirt wants a UEFI loader for it on arm64
    CHECK_FALSE(contains(xml, "<interface"));
    CHECK_FALSE(contains(xml, "qemu:commandline"));
}

TEST_CASE("x86_64 domain: ACPI (so power-off ends it), q35, maximum CPU", "[libvirt]") {
    QemuSpec spec;
    spec.arch = Arch::X86_64;
    spec.kernel = "/k/bzImage";
    spec.smp = 1;
    spec.memory_mb = 512;
    const std::string xml = bb::domain_xml(spec, "n");
    CHECK(contains(xml, "<features><acpi/></features>"));
    CHECK(contains(xml, "<type arch='x86_64' machine='q35'>hvm</type>"));
    CHECK(contains(xml, "<cpu mode='maximum' check='none'/>"));
    CHECK(contains(xml, "<cmdline>console=ttyS0</cmdline>"));
    CHECK_FALSE(contains(xml, "<loader"));
    CHECK_FALSE(contains(xml, "<initrd>"));
}

TEST_CASE("the domain type is kvm only when the spec asks for it", "[libvirt]") {
    QemuSpec spec = arm64_spec();
    spec.accel = Accel::Kvm;
    CHECK(contains(bb::domain_xml(spec, "n"), "<domain type='kvm'>"));
}

TEST_CASE("paths and the command line are escaped", "[libvirt]") {
    QemuSpec spec = arm64_spec();
    spec.kernel = "/tmp/a&b/<Image>";
    spec.initrd = "/tmp/it's \"here\"";
    spec.cmdline = "x=\"a b\" y='<&>'";
    const std::string xml = bb::domain_xml(spec, "bootbench-1-<2>");
    CHECK(contains(xml, "<kernel>/tmp/a&amp;b/&lt;Image&gt;</kernel>"));
    CHECK(contains(xml, "<initrd>/tmp/it&apos;s &quot;here&quot;</initrd>"));
    CHECK(contains(xml, "<cmdline>console=ttyAMA0 x=&quot;a b&quot; y=&apos;&lt;&amp;&gt;&apos;"
                        "</cmdline>"));
    CHECK(contains(xml, "<name>bootbench-1-&lt;2&gt;</name>"));
}

TEST_CASE("extra qemu arguments go through the qemu namespace", "[libvirt]") {
    QemuSpec spec = arm64_spec();
    spec.extra_args = {"-d", "guest_errors&"};
    const std::string xml = bb::domain_xml(spec, "n");
    CHECK(contains(xml, "xmlns:qemu='http://libvirt.org/schemas/domain/qemu/1.0'"));
    CHECK(contains(xml, "<qemu:arg value='-d'/>"));
    CHECK(contains(xml, "<qemu:arg value='guest_errors&amp;'/>"));
}

TEST_CASE("machine options become features, others point to the qemu launcher", "[libvirt]") {
    QemuSpec spec = arm64_spec();
    spec.machine = "virt,acpi=off";
    std::string xml = bb::domain_xml(spec, "n");
    CHECK(contains(xml, "machine='virt'>hvm</type>"));
    CHECK_FALSE(contains(xml, "<features>"));
    CHECK(contains(xml, "<qemu:arg value='-machine'/>\n    <qemu:arg value='acpi=off'/>"));
    spec.machine = "virt,gic-version=3";
    xml = bb::domain_xml(spec, "n");
    CHECK(contains(xml, "<features><gic version='3'/></features>"));
    spec.arch = Arch::X86_64;
    spec.machine = "q35,acpi=off";
    CHECK_FALSE(contains(bb::domain_xml(spec, "n"), "<acpi/>"));
    spec.machine = "virt,virtualization=on,gic-version=3";
    CHECK_THROWS_WITH(bb::domain_xml(spec, "n"),
                      "machine 'virt,virtualization=on,gic-version=3': option "
                      "'virtualization=on' has no libvirt form (libvirt takes acpi=on|off and "
                      "gic-version=N); boot this guest with the qemu launcher");
}

TEST_CASE("libvirt's native argv text splits into words without the environment", "[libvirt]") {
    const std::string text =
        "LC_ALL=C HOME=/var/lib/x /usr/bin/qemu-system-x86_64 -name guest=b-1,debug-threads=on "
        "-object '{\"qom-type\":\"secret\",\"id\":\"m\"}' -append 'console=ttyS0 a='\\''b'\\''' "
        "\\\n-no-shutdown \"dq \\\"x\\\"\"";
    const std::vector<std::string> expected{"/usr/bin/qemu-system-x86_64",
                                            "-name",
                                            "guest=b-1,debug-threads=on",
                                            "-object",
                                            "{\"qom-type\":\"secret\",\"id\":\"m\"}",
                                            "-append",
                                            "console=ttyS0 a='b'",
                                            "-no-shutdown",
                                            "dq \"x\""};
    CHECK(bb::native_argv_words(text) == expected);
}

TEST_CASE("volume names carry the content hash and the file name", "[libvirt]") {
    CHECK(bb::volume_name(std::string(64, 'a'), "/x/y/vmlinuz-6.1") ==
          "aaaaaaaaaaaaaaaa-vmlinuz-6.1");
}
