#include "vm/libvirt_volumes.h"

#include "util/error.h"
#include "util/hash.h"
#include "vm/libvirt_stream.h"

#include <fmt/format.h>
#include <fstream>
#include <memory>
#include <vector>

namespace bb {

namespace fs = std::filesystem;

namespace {
struct PoolDeleter {
    void operator()(virStoragePoolPtr pool) const { virStoragePoolFree(pool); }
};
struct VolumeDeleter {
    void operator()(virStorageVolPtr volume) const { virStorageVolFree(volume); }
};
using Volume = std::unique_ptr<virStorageVol, VolumeDeleter>;

std::string volume_path(virStorageVolPtr volume) {
    char* path = virStorageVolGetPath(volume);
    if (path == nullptr) {
        return {};
    }
    std::string result(path);
    free(path); // NOLINT: allocated by libvirt
    return result;
}

// A new volume `name` holding the bytes of `local`; a failed upload deletes it again.
Volume upload(LibvirtConnection& connection, virStoragePoolPtr storage, const fs::path& local,
              const std::string& name) {
    const auto size = fs::file_size(local);
    const std::string xml = fmt::format("<volume><name>{}</name><capacity unit='bytes'>{}"
                                        "</capacity><target><format type='raw'/></target>"
                                        "</volume>",
                                        name, size);
    Volume volume{virStorageVolCreateXML(storage, xml.c_str(), 0)};
    auto failed = [&](const std::string& what) {
        const std::string reason = libvirt_error();
        if (volume) {
            virStorageVolDelete(volume.get(), 0); // never leave a half-written volume behind
        }
        return Error(fmt::format("libvirt host {}: uploading {} as volume {}: {}: {}",
                                 connection.uri(), local.string(), name, what, reason));
    };
    if (!volume) {
        throw failed("cannot create the volume");
    }
    const std::unique_ptr<virStream, StreamDeleter> stream(virStreamNew(connection.get(), 0));
    if (!stream || virStorageVolUpload(volume.get(), stream.get(), 0, size, 0) < 0) {
        throw failed("cannot start the upload");
    }
    std::ifstream in(local, std::ios::binary);
    std::vector<char> buffer(1 << 18);
    while (in) {
        in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
        size_t left = static_cast<size_t>(in.gcount());
        const char* at = buffer.data();
        while (left > 0) {
            const int sent = virStreamSend(stream.get(), at, left);
            if (sent < 0) {
                virStreamAbort(stream.get());
                throw failed("sending failed");
            }
            at += sent;
            left -= static_cast<size_t>(sent);
        }
    }
    if (virStreamFinish(stream.get()) < 0) {
        throw failed("the upload did not complete");
    }
    return volume;
}

// The sha256 of what the host holds in `volume`, read back through a stream.
std::string volume_sha256(LibvirtConnection& connection, virStorageVolPtr volume,
                          const std::string& name) {
    const std::unique_ptr<virStream, StreamDeleter> stream(virStreamNew(connection.get(), 0));
    auto failed = [&](const std::string& what) {
        return Error(fmt::format("libvirt host {}: reading back volume {} to check its content: "
                                 "{}: {}",
                                 connection.uri(), name, what, libvirt_error()));
    };
    if (!stream || virStorageVolDownload(volume, stream.get(), 0, 0, 0) < 0) {
        throw failed("cannot start the download");
    }
    Sha256 hash;
    std::vector<char> buffer(1 << 18);
    for (;;) {
        const int got = virStreamRecv(stream.get(), buffer.data(), buffer.size());
        if (got < 0) {
            virStreamAbort(stream.get());
            throw failed("receiving failed");
        }
        if (got == 0) {
            break;
        }
        hash.update(std::string_view(buffer.data(), static_cast<size_t>(got)));
    }
    if (virStreamFinish(stream.get()) < 0) {
        throw failed("the download did not complete");
    }
    return hash.hex();
}
} // namespace

std::string volume_name(const std::string& sha256, const fs::path& local) {
    return sha256.substr(0, 16) + "-" + local.filename().string();
}

fs::path LibvirtVolumes::place(const fs::path& local) {
    if (m_connection.is_local()) {
        return local;
    }
    std::lock_guard lock(m_mutex);
    if (auto known = m_placed.find(local); known != m_placed.end()) {
        return known->second;
    }
    const std::unique_ptr<virStoragePool, PoolDeleter> storage(pool());
    const std::string sha256 = sha256_file(local);
    const std::string name = volume_name(sha256, local);
    Volume volume{virStorageVolLookupByName(storage.get(), name.c_str())};
    if (volume && volume_sha256(m_connection, volume.get(), name) != sha256) {
        virStorageVolDelete(volume.get(), 0); // not what its name promises: upload it again
        volume.reset();
    }
    if (!volume) {
        volume = upload(m_connection, storage.get(), local, name);
        if (const std::string held = volume_sha256(m_connection, volume.get(), name);
            held != sha256) {
            virStorageVolDelete(volume.get(), 0);
            throw RuntimeFailure(fmt::format(
                "libvirt host {}: volume {} holds sha256 {} right after uploading {} (sha256 {}); "
                "the volume was deleted. Another bootbench may be uploading the same file to "
                "this host, or the host's storage is failing: run again",
                m_connection.uri(), name, held, local.string(), sha256));
        }
    }
    const fs::path placed = volume_path(volume.get());
    m_placed[local] = placed;
    return placed;
}

// The pool is created (transient, a directory) when the host does not have one yet.
virStoragePoolPtr LibvirtVolumes::pool() {
    virConnectPtr conn = m_connection.get();
    if (virStoragePoolPtr found = virStoragePoolLookupByName(conn, k_pool_name)) {
        if (virStoragePoolIsActive(found) != 1 && virStoragePoolCreate(found, 0) < 0) {
            virStoragePoolFree(found);
            throw RuntimeFailure(
                fmt::format("libvirt host {}: storage pool '{}' cannot be started: {}",
                            m_connection.uri(), k_pool_name, libvirt_error()));
        }
        return found;
    }
    const std::string xml = fmt::format("<pool type='dir'><name>{}</name><target><path>{}</path>"
                                        "</target></pool>",
                                        k_pool_name, k_pool_path);
    virStoragePoolPtr created =
        virStoragePoolCreateXML(conn, xml.c_str(), VIR_STORAGE_POOL_CREATE_WITH_BUILD);
    if (created == nullptr) {
        throw RuntimeFailure(
            fmt::format("libvirt host {}: cannot create storage pool '{}' at {}: {}",
                        m_connection.uri(), k_pool_name, k_pool_path, libvirt_error()));
    }
    return created;
}

} // namespace bb
