#include "artifacts/build_gc.h"

#include "kernel/kernel_builder.h"
#include "store/build_store.h"
#include "util/file_lock.h"
#include "util/paths.h"
#include "util/units.h"

#include <chrono>
#include <ctime>
#include <fmt/format.h>
#include <fstream>
#include <optional>
#include <set>
#include <sys/stat.h>

namespace bb {

namespace fs = std::filesystem;

namespace {
double days_since(const std::string& iso) {
    std::tm tm{};
    if (strptime(iso.c_str(), "%Y-%m-%dT%H:%M:%S", &tm) == nullptr) {
        return 0; // unreadable: treat as just used, never as ancient
    }
    return std::difftime(std::time(nullptr), timegm(&tm)) / 86400;
}

double days_since(const fs::path& path) {
    std::error_code error;
    const auto written = fs::last_write_time(path, error);
    if (error) {
        return 0;
    }
    return std::chrono::duration<double>(fs::file_time_type::clock::now() - written).count() /
           86400;
}

// Bytes that removing `dir` gives back: files linked elsewhere too (a tree's hard links into
// the pristine source) free nothing.
unsigned long long freed_bytes(const fs::path& dir) {
    unsigned long long total = 0;
    std::error_code error;
    for (auto it = fs::recursive_directory_iterator(dir, error);
         it != fs::recursive_directory_iterator(); it.increment(error)) {
        struct stat st {};
        if (lstat(it->path().c_str(), &st) == 0 && S_ISREG(st.st_mode) && st.st_nlink == 1) {
            total += static_cast<unsigned long long>(st.st_size);
        }
    }
    return total;
}

bool is_plain_name(const fs::path& name) {
    const std::string text = name.string();
    return !text.empty() && text != "." && text != ".." && text.find('/') == std::string::npos;
}

// `path` itself when it is a direct child of `parent` (compared as written: a row must name the
// cache's own directory, not something reached through it) and not a symbolic link.
std::optional<fs::path> child_of(const fs::path& parent, const fs::path& path) {
    const fs::path normal = path.lexically_normal();
    if (normal.parent_path() != parent.lexically_normal() || !is_plain_name(normal.filename()) ||
        fs::is_symlink(fs::symlink_status(normal))) {
        return std::nullopt;
    }
    return normal;
}

// The O= directory an artifact directory records, when it has the shape the builder writes
// (trees/<tree>/build-<config>); anything else is ignored.
std::optional<fs::path> recorded_build_dir(const fs::path& cache, const fs::path& artifacts) {
    std::ifstream in(artifacts / k_build_dir_record);
    std::string relative;
    if (!std::getline(in, relative)) {
        return std::nullopt;
    }
    const fs::path rel(relative);
    auto it = rel.begin();
    if (rel.is_absolute() || std::distance(rel.begin(), rel.end()) != 3 || *it++ != "trees") {
        return std::nullopt;
    }
    const fs::path tree = *it++;
    const fs::path build = *it;
    if (!is_plain_name(tree) || build.string().rfind("build-", 0) != 0 || !is_plain_name(build)) {
        return std::nullopt;
    }
    return child_of(cache / "trees" / tree, cache / rel);
}

class Collector {
  public:
    Collector(const fs::path& cache, const GcOptions& options, const GcSay& say)
        : m_cache(cache), m_options(options), m_say(say) {}

    void remove(const fs::path& path, const std::string& what, const std::string& why) {
        if (!fs::exists(fs::symlink_status(path)) || !m_gone.insert(path).second) {
            return;
        }
        const unsigned long long bytes = freed_bytes(path);
        m_say(fmt::format("{} {} {} ({}, {})", m_options.dry_run ? "would remove" : "removed", what,
                          path.lexically_relative(m_cache).string(),
                          format_bytes(static_cast<double>(bytes)), why));
        if (!m_options.dry_run) {
            fs::remove_all(path);
        }
        summary.bytes += bytes;
    }

    // Removed already, or would be in a dry run (which removes nothing).
    bool gone(const fs::path& path) const { return m_gone.count(path) != 0; }

    GcSummary summary;

  private:
    std::set<fs::path> m_gone;
    fs::path m_cache;
    GcOptions m_options;
    GcSay m_say;
};

// O= directories no remaining build names, then trees left without any.
void sweep_trees(const fs::path& cache, const std::set<fs::path>& kept, const GcOptions& options,
                 Collector& collector) {
    const fs::path trees = cache / "trees";
    if (!fs::is_directory(fs::symlink_status(trees))) {
        return;
    }
    for (const auto& tree : fs::directory_iterator(trees)) {
        if (!tree.is_directory() || tree.is_symlink()) {
            continue;
        }
        int builds_left = 0;
        for (const auto& entry : fs::directory_iterator(tree.path())) {
            if (entry.path().filename().string().rfind("build-", 0) != 0 ||
                collector.gone(entry.path())) {
                continue;
            }
            const double idle = days_since(entry.path());
            if (kept.count(entry.path()) != 0 || idle < options.days) {
                ++builds_left;
                continue;
            }
            collector.remove(entry.path(), "build directory",
                             fmt::format("no build names it, unused for {:.1f} days", idle));
            ++collector.summary.build_dirs;
        }
        if (builds_left == 0) {
            collector.remove(tree.path(), "source tree", "no build directory left");
            ++collector.summary.trees;
        }
    }
}
} // namespace

GcSummary collect_build_garbage(Database& db, const fs::path& cache, const GcOptions& options,
                                const GcSay& say, const GcSay& warn) {
    // A build in progress is copying, configuring or compiling in trees/: wait for it.
    std::optional<FileLock> lock;
    if (!options.dry_run) {
        lock.emplace(cache / "locks" / "kernel-build.lock", "a kernel build",
                     FileLock::Mode::WaitIfHeld, warn);
    }
    BuildStore store(db);
    Collector collector(cache, options, say);
    std::set<fs::path> kept; // O= directories of the builds that stay
    for (const auto& row : store.list()) {
        const auto artifacts = child_of(cache / "builds", row.artifact_dir);
        if (!artifacts) {
            warn(fmt::format("warning: build {}: not removing {}: gc only removes directories "
                             "of {} (the row comes from another cache or was edited); remove it "
                             "by hand if it is a bootbench build of yours",
                             row.key.substr(0, 12), row.artifact_dir, (cache / "builds").string()));
            continue;
        }
        const auto build_dir = recorded_build_dir(cache, *artifacts);
        const double idle = days_since(row.last_used_at);
        if (idle < options.days) {
            if (build_dir) {
                kept.insert(*build_dir);
            }
            continue;
        }
        const std::string unused = fmt::format("unused for {:.1f} days", idle);
        collector.remove(*artifacts, "build " + row.key.substr(0, 12), unused);
        if (build_dir) {
            collector.remove(*build_dir, "its build directory", unused);
        }
        if (!options.dry_run) {
            store.remove(row.key);
        }
        ++collector.summary.builds;
    }
    sweep_trees(cache, kept, options, collector);
    return collector.summary;
}

} // namespace bb
