#pragma once
#include <filesystem>
#include <string>

namespace bb {

// An exclusive flock(2) on a file, held for the object's lifetime. The kernel drops it when the
// process dies however it dies, so a crashed holder never leaves a stale lock behind.
class FileLock {
  public:
    // Throws Error naming the holder's pid (written into the file) when the lock is taken.
    FileLock(const std::filesystem::path& path, const std::string& what);
    ~FileLock();
    FileLock(const FileLock&) = delete;
    FileLock& operator=(const FileLock&) = delete;

  private:
    int m_fd = -1;
};

} // namespace bb
