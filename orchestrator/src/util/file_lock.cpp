#include "util/file_lock.h"

#include "util/error.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>

namespace bb {

FileLock::FileLock(const std::filesystem::path& path, const std::string& what, Mode mode,
                   const std::function<void(const std::string&)>& on_wait) {
    std::filesystem::create_directories(path.parent_path());
    // O_NOFOLLOW and a regular-file check: run as root, a link or device node planted at the
    // lock's name would otherwise have our pid written into whatever it points to.
    m_fd = open(path.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0644);
    if (m_fd < 0) {
        const int saved = errno;
        throw Error("cannot open lock file " + path.string() + ": " +
                    (saved == ELOOP ? std::string("it is a symbolic link; remove it")
                                    : std::string(std::strerror(saved))));
    }
    struct stat status {};
    if (fstat(m_fd, &status) != 0 || !S_ISREG(status.st_mode)) {
        close(m_fd);
        m_fd = -1;
        throw Error("cannot use lock file " + path.string() +
                    ": it is not a regular file; remove it");
    }
    if (flock(m_fd, LOCK_EX | LOCK_NB) != 0) {
        std::array<char, 32> holder{};
        const ssize_t n = pread(m_fd, holder.data(), holder.size() - 1, 0);
        const std::string holder_text =
            n > 0 ? " (pid " + std::string(holder.data(), static_cast<size_t>(n)) + ")" : "";
        if (mode == Mode::WaitIfHeld) {
            if (on_wait) {
                on_wait("waiting for " + what + holder_text + " to finish; lock " + path.string());
            }
            int rc = 0;
            while ((rc = flock(m_fd, LOCK_EX)) != 0 && errno == EINTR) {
            }
            if (rc == 0) {
                write_pid();
                return;
            }
        }
        close(m_fd);
        m_fd = -1;
        throw Error(what + " is already running" + holder_text + "; lock " + path.string());
    }
    write_pid();
}

void FileLock::write_pid() {
    const std::string pid = std::to_string(getpid());
    if (ftruncate(m_fd, 0) != 0 || pwrite(m_fd, pid.data(), pid.size(), 0) < 0) {
        // The pid is only informative; the lock itself is held.
    }
}

FileLock::~FileLock() {
    if (m_fd >= 0) {
        close(m_fd); // releases the flock
    }
}

} // namespace bb
