#include "guest/initramfs.h"

#include "util/error.h"
#include "util/hash.h"
#include "util/paths.h"

#include <archive.h>
#include <archive_entry.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <memory>
#include <set>

namespace bb {

namespace fs = std::filesystem;

namespace {
constexpr std::string_view k_format_version = "initramfs-v1";

struct ArchiveWriter {
    archive* handle = archive_write_new();
    ~ArchiveWriter() { archive_write_free(handle); }
};

struct EntryDeleter {
    void operator()(archive_entry* entry) const { archive_entry_free(entry); }
};

class CpioBuilder {
  public:
    explicit CpioBuilder(const fs::path& output) {
        check(archive_write_set_format_cpio_newc(m_writer.handle));
        check(archive_write_add_filter_gzip(m_writer.handle));
        // No time in the gzip header: equal inputs must give byte-identical images.
        check(archive_write_set_filter_option(m_writer.handle, "gzip", "timestamp", nullptr));
        check(archive_write_open_filename(m_writer.handle, output.c_str()));
    }

    void directory(const std::string& path) { add(path, AE_IFDIR, 0755, {}); }
    void char_device(const std::string& path, unsigned major_number, unsigned minor_number) {
        std::unique_ptr<archive_entry, EntryDeleter> entry(archive_entry_new());
        fill(entry.get(), path, AE_IFCHR, 0600, 0);
        archive_entry_set_rdev(entry.get(), makedev(major_number, minor_number));
        check(archive_write_header(m_writer.handle, entry.get()));
    }
    void symlink(const std::string& path, const std::string& target) {
        std::unique_ptr<archive_entry, EntryDeleter> entry(archive_entry_new());
        fill(entry.get(), path, AE_IFLNK, 0777, 0);
        archive_entry_set_symlink(entry.get(), target.c_str());
        check(archive_write_header(m_writer.handle, entry.get()));
    }
    void file(const std::string& path, int mode, const std::string& bytes) {
        add(path, AE_IFREG, mode, bytes);
    }
    void close() { check(archive_write_close(m_writer.handle)); }

  private:
    void fill(archive_entry* entry, const std::string& path, unsigned type, int mode,
              la_int64_t size) {
        // Relative names as the kernel's own gen_init_cpio writes them; fixed owner and time so
        // equal inputs give equal images.
        archive_entry_set_pathname(entry, path.substr(1).c_str());
        archive_entry_set_filetype(entry, type);
        archive_entry_set_perm(entry, static_cast<mode_t>(mode));
        archive_entry_set_size(entry, size);
        archive_entry_set_uid(entry, 0);
        archive_entry_set_gid(entry, 0);
        archive_entry_set_mtime(entry, 0, 0);
        archive_entry_set_nlink(entry, type == AE_IFDIR ? 2 : 1);
    }
    void add(const std::string& path, unsigned type, int mode, const std::string& bytes) {
        std::unique_ptr<archive_entry, EntryDeleter> entry(archive_entry_new());
        fill(entry.get(), path, type, mode, static_cast<la_int64_t>(bytes.size()));
        check(archive_write_header(m_writer.handle, entry.get()));
        if (!bytes.empty() && archive_write_data(m_writer.handle, bytes.data(), bytes.size()) !=
                                  static_cast<la_ssize_t>(bytes.size())) {
            check(ARCHIVE_FATAL);
        }
    }
    void check(int status) {
        if (status < ARCHIVE_WARN) {
            throw Error(std::string("libarchive: ") + archive_error_string(m_writer.handle));
        }
    }
    ArchiveWriter m_writer;
};
} // namespace

std::string initramfs_key(const InitramfsSpec& spec) {
    Sha256 hash;
    hash.tagged("format", k_format_version);
    hash.tagged("arch", to_string(spec.arch));
    hash.tagged("busybox", sha256_file(spec.busybox));
    hash.tagged("init", spec.init_script);
    for (const auto& file : spec.files) {
        hash.tagged("path", file.guest_path);
        hash.tagged("mode", std::to_string(file.mode));
        hash.tagged("bytes", sha256_file(file.host_path));
    }
    return hash.hex();
}

Initramfs build_initramfs(const InitramfsSpec& spec, const fs::path& cache) {
    Initramfs image;
    image.content_key = initramfs_key(spec);
    image.path = cache / "images" /
                 ("initramfs-" + std::string(to_string(spec.arch)) + "-" +
                  image.content_key.substr(0, 16) + ".cpio.gz");
    if (fs::exists(image.path)) {
        image.cache_hit = true;
        return image;
    }
    fs::create_directories(image.path.parent_path());
    fs::path temp = image.path;
    temp += ".tmp." + std::to_string(getpid());
    try {
        CpioBuilder cpio(temp);
        std::set<std::string> directories;
        // The kernel's unpacker creates no missing parents: each directory comes first.
        auto directory = [&](const std::string& path) {
            for (size_t slash = path.find('/', 1); slash != std::string::npos;
                 slash = path.find('/', slash + 1)) {
                if (directories.insert(path.substr(0, slash)).second) {
                    cpio.directory(path.substr(0, slash));
                }
            }
            if (directories.insert(path).second) {
                cpio.directory(path);
            }
        };
        for (const char* dir : {"/bin", "/sbin", "/dev", "/proc", "/sys", "/tmp", "/etc"}) {
            directory(dir);
        }
        // The kernel opens /dev/console for /init before anything can mount devtmpfs.
        cpio.char_device("/dev/console", 5, 1);
        cpio.char_device("/dev/null", 1, 3);
        cpio.file("/bin/busybox", 0755, read_file(spec.busybox));
        cpio.symlink("/bin/sh", "busybox");
        cpio.file("/init", 0755, spec.init_script);
        for (const auto& file : spec.files) {
            if (file.guest_path.empty() || file.guest_path.front() != '/') {
                throw Error("guest path must be absolute: " + file.guest_path);
            }
            if (const size_t slash = file.guest_path.rfind('/'); slash > 0) {
                directory(file.guest_path.substr(0, slash));
            }
            cpio.file(file.guest_path, file.mode, read_file(file.host_path));
        }
        cpio.close();
    } catch (...) {
        std::error_code ignored;
        fs::remove(temp, ignored);
        throw;
    }
    fs::rename(temp, image.path);
    return image;
}

} // namespace bb
