#include "util/checklist.h"

#include <catch2/catch.hpp>

using bb::Checklist;
using bb::Need;

TEST_CASE("an absent optional piece is a note and the check still passes", "[checklist]") {
    // bootbench doctor on a TCG-only machine: everything required works, /dev/kvm is absent.
    Checklist list;
    CHECK(list.add(true, Need::Required, "qemu arm64", "QEMU emulator version 7.2.0") ==
          "  ok   qemu arm64             QEMU emulator version 7.2.0\n");
    CHECK(list.add(false, Need::Optional, "/dev/kvm", "absent or no access") ==
          "  note /dev/kvm               absent or no access\n");
    CHECK(list.problems() == 0);
    CHECK(list.notes() == 1);
    CHECK(list.summary() == "All required checks passed (1 note).");
    CHECK(list.exit_status() == 0);
}

TEST_CASE("a missing required piece is a problem and fails the check", "[checklist]") {
    Checklist list;
    CHECK(list.add(false, Need::Required, "OVMF.fd", "not found") ==
          "  --   OVMF.fd                not found\n");
    list.add(false, Need::Optional, "ccache", "ccache not found");
    list.add(false, Need::Optional, "/dev/kvm", "absent");
    list.add(false, Need::Required, "busybox arm64", "not found");
    CHECK(list.problems() == 2);
    CHECK(list.notes() == 2);
    CHECK(list.summary() == "2 problem(s) found (2 notes).");
    CHECK(list.exit_status() == bb::k_exit_runtime);
}

TEST_CASE("a working optional piece is simply ok", "[checklist]") {
    Checklist list;
    CHECK(list.add(true, Need::Optional, "/dev/kvm", "present").rfind("  ok ", 0) == 0);
    CHECK(list.summary() == "All required checks passed.");
    CHECK(list.exit_status() == 0);
}
