#include "test_support.h"
#include "util/error.h"
#include "vm/libvirt_connection.h"
#include "vm/libvirt_uri.h"

#include <catch2/catch.hpp>

using bb::test::thrown_message;

namespace {
bool runs_program(const char* uri) {
    return !bb::uri_program_reason(uri).empty();
}
} // namespace

TEST_CASE("ordinary libvirt URIs run no program of their own", "[libvirt][uri]") {
    CHECK_FALSE(runs_program("qemu:///system"));
    CHECK_FALSE(runs_program("qemu:///session"));
    CHECK_FALSE(runs_program("qemu+tcp://127.0.0.1:16509/system"));
    CHECK_FALSE(runs_program("qemu+ssh://root@lab1/system?keyfile=/root/.ssh/k&no_verify=1"));
    CHECK_FALSE(runs_program("qemu+unix:///system?socket=/run/libvirt/libvirt-sock"));
    CHECK_FALSE(runs_program("qemu+tls://lab1/system?pkipath=/etc/pki/x"));
}

TEST_CASE("URIs whose transport or parameters name a program are recognised", "[libvirt][uri]") {
    CHECK(bb::uri_program_reason("qemu+ext:///system?command=/tmp/evil") ==
          "transport \"ext\" executes command=/tmp/evil on this machine");
    CHECK(runs_program("qemu+EXT:///system?command=/tmp/evil"));
    CHECK(runs_program("qemu+ext:///system"));
    CHECK(bb::uri_program_reason("qemu+ssh://lab1/system?netcat=/tmp/nc") ==
          "parameter netcat=/tmp/nc names a program to run");
    // libvirt unescapes names and compares them without case, and also splits on ';'.
    CHECK(runs_program("qemu+ssh://lab1/system?no_verify=1;NetCat=x"));
    CHECK(runs_program("qemu+ssh://lab1/system?net%63at=x"));
    CHECK(runs_program("qemu+ssh://lab1/system?command=x"));
    CHECK(runs_program("qemu+libssh2://lab1/system?socket=/x;touch%20/tmp/y"));
    CHECK(runs_program("qemu+ssh://-oProxyCommand=touch%20x/system"));
    CHECK(runs_program("qemu+ssh://root@-oProxyCommand=x/system"));
}

TEST_CASE("a URI that runs a program is refused unless allowed", "[libvirt][uri]") {
    const std::string message = thrown_message<bb::Error>(
        [] { bb::refuse_uri_programs("qemu+ext:///system?command=/tmp/evil", false); });
    CHECK(message ==
          "libvirt URI \"qemu+ext:///system?command=/tmp/evil\" makes libvirt run a program: "
          "transport \"ext\" executes command=/tmp/evil on this machine. Refused, as a URI from a "
          "file could run anything as this user; if you trust it, set allow_uri_programs: true "
          "on that host (hosts list) or pass --allow-uri-programs (boot --libvirt)");
    CHECK_NOTHROW(bb::refuse_uri_programs("qemu+ext:///system?command=/tmp/evil", true));
    CHECK_NOTHROW(bb::refuse_uri_programs("qemu+tcp://127.0.0.1/system", false));
}

TEST_CASE("a connection never opens a URI that runs a program unless allowed", "[libvirt][uri]") {
    bb::test::TempDir dir;
    const auto stamp = dir / "ran";
    const auto program = dir / "program.sh";
    bb::test::write_bytes(program, "#!/bin/sh\ntouch '" + stamp.string() + "'\n");
    std::filesystem::permissions(program, std::filesystem::perms::owner_all);
    const std::string uri = "qemu+ext:///system?command=" + program.string();
    const std::string message =
        thrown_message<bb::Error>([&] { bb::LibvirtConnection connection(uri); });
    CHECK(message.find("makes libvirt run a program") != std::string::npos);
    CHECK_FALSE(std::filesystem::exists(stamp));
}
