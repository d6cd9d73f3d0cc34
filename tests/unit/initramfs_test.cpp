#include "guest/elf_check.h"
#include "guest/init_script.h"
#include "guest/initramfs.h"
#include "test_support.h"
#include "util/error.h"
#include "util/hash.h"
#include "util/paths.h"

#include <algorithm>
#include <archive.h>
#include <archive_entry.h>
#include <catch2/catch.hpp>
#include <cstdint>
#include <cstring>
#include <elf.h>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using bb::Arch;

namespace {
using bb::test::k_busybox;
using bb::test::read_text;
using bb::test::require_busybox;

struct CpioEntry {
    unsigned type = 0;
    unsigned perm = 0;
    std::string data;
    std::string symlink;
    unsigned long rdev_major = 0;
    unsigned long rdev_minor = 0;
    long long uid = -1;
    long long gid = -1;
    long long mtime = -1;
};

struct ArchiveReader {
    archive* handle = archive_read_new();
    ~ArchiveReader() { archive_read_free(handle); }
};

// Reads a gzip'd cpio back the way the kernel would see it: name -> entry.
std::map<std::string, CpioEntry> read_cpio_gz(const fs::path& path) {
    ArchiveReader reader;
    REQUIRE(archive_read_support_filter_gzip(reader.handle) == ARCHIVE_OK);
    REQUIRE(archive_read_support_format_cpio(reader.handle) == ARCHIVE_OK);
    REQUIRE(archive_read_open_filename(reader.handle, path.c_str(), 1 << 16) == ARCHIVE_OK);
    std::map<std::string, CpioEntry> entries;
    archive_entry* header = nullptr;
    int status = ARCHIVE_OK;
    while ((status = archive_read_next_header(reader.handle, &header)) == ARCHIVE_OK) {
        CpioEntry entry;
        entry.type = archive_entry_filetype(header);
        entry.perm = archive_entry_perm(header);
        if (const char* target = archive_entry_symlink(header)) {
            entry.symlink = target;
        }
        entry.rdev_major = archive_entry_rdevmajor(header);
        entry.rdev_minor = archive_entry_rdevminor(header);
        entry.uid = archive_entry_uid(header);
        entry.gid = archive_entry_gid(header);
        entry.mtime = archive_entry_mtime(header);
        char buffer[1 << 16];
        la_ssize_t got = 0;
        while ((got = archive_read_data(reader.handle, buffer, sizeof buffer)) > 0) {
            entry.data.append(buffer, static_cast<size_t>(got));
        }
        REQUIRE(got == 0);
        const std::string name = archive_entry_pathname(header);
        INFO(name);
        CHECK(entries.count(name) == 0); // no duplicates
        entries[name] = std::move(entry);
    }
    REQUIRE(status == ARCHIVE_EOF);
    return entries;
}

// Entry names in archive order: the kernel needs each directory before what it holds.
std::vector<std::string> names_in_order(const fs::path& path) {
    ArchiveReader reader;
    REQUIRE(archive_read_support_filter_gzip(reader.handle) == ARCHIVE_OK);
    REQUIRE(archive_read_support_format_cpio(reader.handle) == ARCHIVE_OK);
    REQUIRE(archive_read_open_filename(reader.handle, path.c_str(), 1 << 16) == ARCHIVE_OK);
    std::vector<std::string> names;
    archive_entry* header = nullptr;
    while (archive_read_next_header(reader.handle, &header) == ARCHIVE_OK) {
        names.emplace_back(archive_entry_pathname(header));
    }
    return names;
}

std::vector<std::string> files_in(const fs::path& dir) {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(dir)) {
        names.push_back(entry.path().filename().string());
    }
    return names;
}

// A minimal ELF64 image: a header and one program header of type `segment`.
std::string fake_elf(uint16_t machine, uint32_t segment, unsigned char elf_class = ELFCLASS64) {
    Elf64_Ehdr header{};
    std::memcpy(header.e_ident, ELFMAG, SELFMAG);
    header.e_ident[EI_CLASS] = elf_class;
    header.e_ident[EI_DATA] = ELFDATA2LSB;
    header.e_ident[EI_VERSION] = EV_CURRENT;
    header.e_type = ET_EXEC;
    header.e_machine = machine;
    header.e_version = EV_CURRENT;
    header.e_phoff = sizeof header;
    header.e_ehsize = sizeof header;
    header.e_phentsize = sizeof(Elf64_Phdr);
    header.e_phnum = 1;
    Elf64_Phdr program{};
    program.p_type = segment;
    std::string bytes(sizeof header + sizeof program, '\0');
    std::memcpy(bytes.data(), &header, sizeof header);
    std::memcpy(bytes.data() + sizeof header, &program, sizeof program);
    return bytes;
}
} // namespace

TEST_CASE("the initramfs holds /init, busybox, /dev/console and the extra files", "[initramfs]") {
    require_busybox();
    bb::test::TempDir dir;
    bb::test::write_bytes(dir / "workload.sh", "#!/bin/sh\necho working\n");
    bb::test::write_bytes(dir / "motd", "hello\n");
    bb::InitramfsSpec spec;
    spec.arch = Arch::X86_64;
    spec.busybox = k_busybox;
    spec.init_script = bb::default_init_script();
    spec.files = {{"/workload", dir / "workload.sh", 0700}, {"/etc/motd", dir / "motd", 0644}};
    const fs::path cache = dir / "cache";

    const bb::Initramfs image = bb::build_initramfs(spec, cache);
    CHECK_FALSE(image.cache_hit);
    CHECK(image.content_key.size() == 64);
    CHECK(image.content_key == bb::initramfs_key(spec));
    CHECK(image.path ==
          cache / "images" / ("initramfs-x86_64-" + image.content_key.substr(0, 16) + ".cpio.gz"));
    REQUIRE(fs::exists(image.path));
    // Nothing but the finished image: the temporary was renamed, not left behind.
    CHECK(files_in(cache / "images") == std::vector<std::string>{image.path.filename().string()});

    const auto entries = read_cpio_gz(image.path);
    std::vector<std::string> names;
    for (const auto& [name, entry] : entries) {
        names.push_back(name);
    }
    // Relative names, as the kernel's gen_init_cpio writes them (std::map sorts them).
    CHECK(names == std::vector<std::string>{"bin", "bin/busybox", "bin/sh", "dev", "dev/console",
                                            "dev/null", "etc", "etc/motd", "init", "proc", "sbin",
                                            "sys", "tmp", "workload"});

    const CpioEntry& init = entries.at("init");
    CHECK(init.type == AE_IFREG);
    CHECK(init.perm == 0755);
    CHECK(init.data == spec.init_script);

    const CpioEntry& busybox = entries.at("bin/busybox");
    CHECK(busybox.type == AE_IFREG);
    CHECK(busybox.perm == 0755);
    CHECK(busybox.data.size() == fs::file_size(k_busybox));
    CHECK(bb::sha256_hex(busybox.data) == bb::sha256_file(k_busybox)); // no 2 MB diff on failure

    const CpioEntry& console = entries.at("dev/console");
    CHECK(console.type == AE_IFCHR);
    CHECK(console.rdev_major == 5);
    CHECK(console.rdev_minor == 1);
    CHECK(console.data.empty());

    const CpioEntry& dev_null = entries.at("dev/null");
    CHECK(dev_null.type == AE_IFCHR);
    CHECK(dev_null.rdev_major == 1);
    CHECK(dev_null.rdev_minor == 3);

    const CpioEntry& sh = entries.at("bin/sh");
    CHECK(sh.type == AE_IFLNK);
    CHECK(sh.symlink == "busybox");

    for (const char* name : {"bin", "sbin", "dev", "proc", "sys", "tmp", "etc"}) {
        INFO(name);
        CHECK(entries.at(name).type == AE_IFDIR);
        CHECK(entries.at(name).perm == 0755);
    }

    const CpioEntry& workload = entries.at("workload");
    CHECK(workload.type == AE_IFREG);
    CHECK(workload.perm == 0700);
    CHECK(workload.data == "#!/bin/sh\necho working\n");
    CHECK(entries.at("etc/motd").perm == 0644);
    CHECK(entries.at("etc/motd").data == "hello\n");

    // Fixed owner and time: equal inputs give equal archives.
    for (const auto& [name, entry] : entries) {
        INFO(name);
        CHECK(entry.uid == 0);
        CHECK(entry.gid == 0);
        CHECK(entry.mtime == 0);
    }
}

TEST_CASE("files in nested directories get their parents first, each once", "[initramfs]") {
    require_busybox();
    bb::test::TempDir dir;
    bb::test::write_bytes(dir / "lib", "library\n");
    bb::InitramfsSpec spec;
    spec.busybox = k_busybox;
    spec.init_script = bb::default_init_script();
    spec.files = {{"/lib/aarch64-linux-gnu/libc.so.6", dir / "lib", 0755},
                  {"/lib/ld-linux-aarch64.so.1", dir / "lib", 0755},
                  {"/usr/bin/qemu", dir / "lib", 0755}};
    const auto names = names_in_order(bb::build_initramfs(spec, dir / "cache").path);
    auto at = [&names](const std::string& name) {
        const auto found = std::find(names.begin(), names.end(), name);
        INFO(name);
        REQUIRE(found != names.end());
        return found - names.begin();
    };
    CHECK(at("lib") < at("lib/aarch64-linux-gnu"));
    CHECK(at("lib/aarch64-linux-gnu") < at("lib/aarch64-linux-gnu/libc.so.6"));
    CHECK(at("lib") < at("lib/ld-linux-aarch64.so.1"));
    CHECK(at("usr") < at("usr/bin"));
    CHECK(at("usr/bin") < at("usr/bin/qemu"));
    CHECK(read_cpio_gz(bb::build_initramfs(spec, dir / "cache").path).at("usr/bin").type ==
          AE_IFDIR); // read_cpio_gz also checks there are no duplicates
}

TEST_CASE("an unchanged spec is a cache hit, a changed one is a new image", "[initramfs]") {
    require_busybox();
    bb::test::TempDir dir;
    bb::InitramfsSpec spec;
    spec.busybox = k_busybox;
    spec.init_script = bb::default_init_script();
    const fs::path cache = dir / "cache";

    const auto first = bb::build_initramfs(spec, cache);
    REQUIRE_FALSE(first.cache_hit);
    const auto first_bytes = bb::read_file(first.path);

    const auto second = bb::build_initramfs(spec, cache);
    CHECK(second.cache_hit);
    CHECK(second.path == first.path);
    CHECK(second.content_key == first.content_key);
    CHECK(bb::read_file(second.path) == first_bytes); // not rebuilt

    bb::InitramfsSpec changed = spec;
    changed.init_script = bb::init_script_running("/workload");
    const auto third = bb::build_initramfs(changed, cache);
    CHECK_FALSE(third.cache_hit);
    CHECK(third.content_key != first.content_key);
    CHECK(third.path != first.path);
    CHECK(read_cpio_gz(third.path).at("init").data == changed.init_script);
    CHECK(files_in(cache / "images").size() == 2);
}

TEST_CASE("the content key covers arch, files and their modes", "[initramfs]") {
    require_busybox();
    bb::test::TempDir dir;
    bb::test::write_bytes(dir / "a", "payload");
    bb::InitramfsSpec spec;
    spec.busybox = k_busybox;
    spec.init_script = "#!/bin/busybox sh\n";
    const std::string bare = bb::initramfs_key(spec);
    CHECK(bb::initramfs_key(spec) == bare); // deterministic

    bb::InitramfsSpec arm = spec;
    arm.arch = Arch::Arm64;
    CHECK(bb::initramfs_key(arm) != bare);

    bb::InitramfsSpec with_file = spec;
    with_file.files = {{"/a", dir / "a", 0755}};
    const std::string file_key = bb::initramfs_key(with_file);
    CHECK(file_key != bare);

    bb::InitramfsSpec other_mode = with_file;
    other_mode.files[0].mode = 0644;
    CHECK(bb::initramfs_key(other_mode) != file_key);

    bb::InitramfsSpec other_path = with_file;
    other_path.files[0].guest_path = "/b";
    CHECK(bb::initramfs_key(other_path) != file_key);

    bb::test::write_bytes(dir / "a", "payload2"); // same path, new bytes
    CHECK(bb::initramfs_key(with_file) != file_key);
}

TEST_CASE("a relative guest path is refused and leaves no partial image", "[initramfs]") {
    require_busybox();
    bb::test::TempDir dir;
    bb::test::write_bytes(dir / "w", "x");
    bb::InitramfsSpec spec;
    spec.busybox = k_busybox;
    spec.init_script = bb::default_init_script();
    spec.files = {{"workload", dir / "w", 0755}};
    const fs::path cache = dir / "cache";
    const std::string message =
        bb::test::thrown_message<bb::Error>([&] { bb::build_initramfs(spec, cache); });
    CHECK_THAT(message, Catch::Contains("absolute"));
    CHECK_THAT(message, Catch::Contains("workload"));
    CHECK(files_in(cache / "images").empty());
}

// The gzip header carries an MTIME field; libarchive fills it with the build time unless told
// not to, so two builds of the same inputs differ and initrd_sha256 stops identifying content.
TEST_CASE("the gzip wrapper carries no timestamp", "[initramfs]") {
    require_busybox();
    bb::test::TempDir dir;
    bb::InitramfsSpec spec;
    spec.busybox = k_busybox;
    spec.init_script = bb::default_init_script();
    const auto image = bb::build_initramfs(spec, dir / "cache");
    const std::string bytes = bb::read_file(image.path);
    REQUIRE(bytes.size() > 10);
    CHECK(static_cast<unsigned char>(bytes[0]) == 0x1f);
    CHECK(static_cast<unsigned char>(bytes[1]) == 0x8b);
    CHECK(bytes.substr(4, 4) == std::string(4, '\0'));
}

TEST_CASE("the init scripts print both markers with the guest uptime", "[initramfs]") {
    const std::string script = bb::default_init_script();
    CHECK(script.rfind("#!/bin/busybox sh\n", 0) == 0);
    const auto boot_done = script.find("echo \"BOOTBENCH-MARKER boot-done $up\"");
    const auto end = script.find("echo \"BOOTBENCH-MARKER end $up\"");
    REQUIRE(boot_done != std::string::npos);
    REQUIRE(end != std::string::npos);
    CHECK(boot_done < script.find("[ -x /workload ] && /workload"));
    CHECK(script.find("[ -x /workload ] && /workload") < end);
    CHECK(end < script.find("poweroff -f"));

    const std::string running = bb::init_script_running("/user/script.sh");
    CHECK(
        running.find(
            "/bin/busybox sh /user/script.sh || echo \"BOOTBENCH-MARKER workload-failed $?\"\n") !=
        std::string::npos);
    CHECK(running.find("/bin/busybox sh /user/script.sh") > running.find("boot-done"));
}

TEST_CASE("boot modules are loaded in order before the boot marker, after /proc", "[initramfs]") {
    const std::vector<std::string> modules{"virtio", "virtio_blk"};
    for (const std::string& script :
         {bb::default_init_script(modules), bb::init_script_running("/workload.sh", modules)}) {
        const auto proc = script.find("mount -t proc proc /proc");
        const auto first = script.find("/bin/busybox insmod /lib/modules/virtio.ko || echo "
                                       "\"bootbench: insmod virtio failed\"\n");
        const auto second = script.find("/bin/busybox insmod /lib/modules/virtio_blk.ko");
        const auto marker = script.find("BOOTBENCH-MARKER boot-done");
        REQUIRE(first != std::string::npos);
        REQUIRE(second != std::string::npos);
        CHECK(proc < first);
        CHECK(first < second);
        CHECK(second < marker);
    }
    CHECK(bb::default_init_script().find("insmod") == std::string::npos);
}

TEST_CASE("require_static_elf accepts static ELF executables of the right arch", "[elf]") {
    bb::test::TempDir dir;
    bb::test::write_bytes(dir / "arm", fake_elf(EM_AARCH64, PT_LOAD));
    bb::test::write_bytes(dir / "x86", fake_elf(EM_X86_64, PT_LOAD));
    CHECK_NOTHROW(bb::require_static_elf(dir / "arm", Arch::Arm64));
    CHECK_NOTHROW(bb::require_static_elf(dir / "x86", Arch::X86_64));
    CHECK_THAT(bb::test::thrown_message<bb::Error>(
                   [&] { bb::require_static_elf(dir / "arm", Arch::X86_64); }),
               Catch::Contains("not built for x86_64"));
    CHECK_THAT(bb::test::thrown_message<bb::Error>(
                   [&] { bb::require_static_elf(dir / "x86", Arch::Arm64); }),
               Catch::Contains("not built for arm64"));
}

TEST_CASE("require_static_elf rejects dynamic, 32-bit and non-ELF files", "[elf]") {
    bb::test::TempDir dir;
    bb::test::write_bytes(dir / "dynamic", fake_elf(EM_AARCH64, PT_INTERP));
    CHECK_THAT(bb::test::thrown_message<bb::Error>(
                   [&] { bb::require_static_elf(dir / "dynamic", Arch::Arm64); }),
               Catch::Contains("dynamically linked"));

    bb::test::write_bytes(dir / "elf32", fake_elf(EM_X86_64, PT_LOAD, ELFCLASS32));
    bb::test::write_bytes(dir / "script", "#!/bin/sh\necho not an executable at all, no sir\n"
                                          "padding padding padding padding padding padding\n");
    bb::test::write_bytes(dir / "empty", "");
    bb::test::write_bytes(dir / "short", "\177ELF");
    for (const char* name : {"elf32", "script", "empty", "short"}) {
        INFO(name);
        const fs::path path = dir / name;
        const std::string message = bb::test::thrown_message<bb::Error>(
            [&] { bb::require_static_elf(path, Arch::X86_64); });
        CHECK_THAT(message, Catch::Contains("not a 64-bit ELF"));
        CHECK_THAT(message, Catch::Contains(path.string()));
    }
    CHECK_THROWS_AS(bb::require_static_elf(dir / "missing", Arch::X86_64), bb::Error);
}

TEST_CASE("require_static_elf on the host's real binaries", "[elf]") {
    // The host's own busybox-static, so this holds on an x86_64 and an arm64 host alike.
    require_busybox();
    const Arch host = bb::host_arch();
    const Arch other = host == Arch::X86_64 ? Arch::Arm64 : Arch::X86_64;
    CHECK_NOTHROW(bb::require_static_elf(k_busybox, host));
    CHECK_THAT(
        bb::test::thrown_message<bb::Error>([&] { bb::require_static_elf(k_busybox, other); }),
        Catch::Contains("not built for " + std::string(bb::to_string(other))));
    REQUIRE(fs::exists("/bin/ls"));
    CHECK_THAT(
        bb::test::thrown_message<bb::Error>([&] { bb::require_static_elf("/bin/ls", host); }),
        Catch::Contains("dynamically linked"));
}

TEST_CASE("files in missing directories bring their parents, each once and first", "[initramfs]") {
    require_busybox();
    bb::test::TempDir dir;
    bb::test::write_bytes(dir / "a.ko", "module a");
    bb::test::write_bytes(dir / "b.ko", "module b");
    bb::InitramfsSpec spec;
    spec.arch = Arch::X86_64;
    spec.busybox = k_busybox;
    spec.init_script = bb::default_init_script();
    spec.files = {{"/lib/modules/a.ko", dir / "a.ko", 0644},
                  {"/lib/modules/b.ko", dir / "b.ko", 0644},
                  {"/etc/deep/x", dir / "a.ko", 0644}};
    const auto entries = read_cpio_gz(bb::build_initramfs(spec, dir / "cache").path);
    for (const char* directory : {"lib", "lib/modules", "etc/deep"}) {
        INFO(directory);
        REQUIRE(entries.count(directory) == 1);
        CHECK(entries.at(directory).type == AE_IFDIR);
    }
    CHECK(entries.at("lib/modules/b.ko").data == "module b");
}
