#pragma once
#include <filesystem>
#include <functional>
#include <string>

namespace bb {

// An exclusive flock(2) on a file, held for the object's lifetime. The kernel drops it when the
// process dies however it dies, so a crashed holder never leaves a stale lock behind.
class FileLock {
  public:
    enum class Mode { FailIfHeld, WaitIfHeld };
    // FailIfHeld throws Error naming the holder's pid (written into the file) when the lock is
    // taken; WaitIfHeld calls `on_wait` once and blocks until the holder lets go.
    FileLock(const std::filesystem::path& path, const std::string& what,
             Mode mode = Mode::FailIfHeld, const std::function<void(const std::string&)>& on_wait = {});
    ~FileLock();
    FileLock(const FileLock&) = delete;
    FileLock& operator=(const FileLock&) = delete;

  private:
    void write_pid();
    int m_fd = -1;
};

} // namespace bb
