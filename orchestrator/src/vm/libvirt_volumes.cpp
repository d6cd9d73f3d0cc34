#include "vm/libvirt_volumes.h"

#include "util/error.h"
#include "util/hash.h"

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
struct StreamDeleter {
    void operator()(virStreamPtr stream) const { virStreamFree(stream); }
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
    const std::string name = volume_name(sha256_file(local), local);
    fs::path placed;
    if (Volume existing{virStorageVolLookupByName(storage.get(), name.c_str())}) {
        placed = volume_path(existing.get());
    } else {
        placed = upload(storage.get(), local, name);
    }
    m_placed[local] = placed;
    return placed;
}

// The pool is created (transient, a directory) when the host does not have one yet.
virStoragePoolPtr LibvirtVolumes::pool() {
    virConnectPtr conn = m_connection.get();
    if (virStoragePoolPtr found = virStoragePoolLookupByName(conn, k_pool_name)) {
        if (virStoragePoolIsActive(found) != 1 && virStoragePoolCreate(found, 0) < 0) {
            virStoragePoolFree(found);
            throw Error(fmt::format("libvirt host {}: storage pool '{}' cannot be started: {}",
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
        throw Error(fmt::format("libvirt host {}: cannot create storage pool '{}' at {}: {}",
                                m_connection.uri(), k_pool_name, k_pool_path, libvirt_error()));
    }
    return created;
}

fs::path LibvirtVolumes::upload(virStoragePoolPtr storage, const fs::path& local,
                                const std::string& name) {
    const auto size = fs::file_size(local);
    const std::string xml = fmt::format("<volume><name>{}</name><capacity unit='bytes'>{}"
                                        "</capacity><target><format type='raw'/></target>"
                                        "</volume>",
                                        name, size);
    const Volume volume{virStorageVolCreateXML(storage, xml.c_str(), 0)};
    auto failed = [&](const std::string& what) {
        const std::string reason = libvirt_error();
        if (volume) {
            virStorageVolDelete(volume.get(), 0); // never leave a half-written volume behind
        }
        return Error(fmt::format("libvirt host {}: uploading {} as volume {}: {}: {}",
                                 m_connection.uri(), local.string(), name, what, reason));
    };
    if (!volume) {
        throw failed("cannot create the volume");
    }
    const std::unique_ptr<virStream, StreamDeleter> stream(virStreamNew(m_connection.get(), 0));
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
    return volume_path(volume.get());
}

} // namespace bb
