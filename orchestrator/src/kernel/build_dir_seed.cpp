#include "kernel/build_dir_seed.h"

#include "util/error.h"
#include "util/paths.h"
#include "util/run_command.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <fmt/format.h>
#include <string_view>
#include <unistd.h>
#include <unordered_set>

namespace bb {

namespace fs = std::filesystem;

namespace {
// Files kbuild writes its paths into are small text files (.cmd, Makefile, auto.conf.cmd,
// modules.order); objects and images are skipped unread.
constexpr std::uintmax_t k_largest_text_file = 4u << 20;

bool is_object_or_image(const fs::path& path) {
    static const char* const binary_extensions[] = {".o", ".a", ".ko", ".gz", ".bin", ".so"};
    const std::string extension = path.extension().string();
    for (const char* binary : binary_extensions) {
        if (extension == binary) {
            return true;
        }
    }
    const std::string name = path.filename().string();
    return name == "Image" || name == "bzImage" || name.rfind("vmlinux", 0) == 0;
}

bool replace_all(std::string& text, const std::string& from, const std::string& to) {
    bool changed = false;
    for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at)) {
        text.replace(at, from.size(), to);
        at += to.size();
        changed = true;
    }
    return changed;
}

// The seed's paths in one text file, rewritten with the file's modification time kept (make
// compares times; a rewritten .cmd file must not look newer than what it describes).
void rewrite_text_file(const fs::path& path, const BuildDirSeed& seed, const fs::path& tree,
                       const fs::path& build_dir) {
    std::error_code error;
    const auto size = fs::file_size(path, error);
    if (error || size > k_largest_text_file || is_object_or_image(path)) {
        return;
    }
    std::string text = read_file(path);
    if (text.find('\0') != std::string::npos) {
        return;
    }
    const bool build_dir_named = replace_all(text, seed.build_dir.string(), build_dir.string());
    const bool tree_named = replace_all(text, seed.tree.string(), tree.string());
    if (!build_dir_named && !tree_named) {
        return;
    }
    const auto modified = fs::last_write_time(path);
    write_file_atomically(path, text);
    fs::last_write_time(path, modified);
}

void repoint_link(const fs::path& link, const BuildDirSeed& seed, const fs::path& tree) {
    std::string target = fs::read_symlink(link).string();
    if (replace_all(target, seed.tree.string(), tree.string())) {
        fs::remove(link);
        fs::create_symlink(target, link);
    }
}

void rewrite_paths(const fs::path& copy, const BuildDirSeed& seed, const fs::path& tree,
                   const fs::path& build_dir) {
    for (const auto& entry : fs::recursive_directory_iterator(copy)) {
        if (entry.is_symlink()) {
            repoint_link(entry.path(), seed, tree);
        } else if (entry.is_regular_file()) {
            rewrite_text_file(entry.path(), seed, tree, build_dir);
        }
    }
}
} // namespace

namespace {
// The very file (one inode), or an unchanged copy of it: the same size and modification time
// (tar keeps the archive's times, so a source unpacked again matches; patch writes a file
// with the current time, so a patched one never does).
bool same_file_content(const fs::path& file, const fs::path& seed_file) {
    std::error_code error;
    if (fs::equivalent(file, seed_file, error) && !error) {
        return true;
    }
    std::array<std::error_code, 4> errors;
    const bool same =
        fs::file_size(file, errors[0]) == fs::file_size(seed_file, errors[1]) &&
        fs::last_write_time(file, errors[2]) == fs::last_write_time(seed_file, errors[3]);
    return same && std::all_of(errors.begin(), errors.end(),
                               [](const std::error_code& code) { return !code; });
}
} // namespace

std::vector<fs::path> files_differing_from(const fs::path& tree, const fs::path& seed_tree) {
    std::vector<fs::path> differing;
    for (auto entry = fs::recursive_directory_iterator(tree);
         entry != fs::recursive_directory_iterator(); ++entry) {
        if (entry->is_directory() && entry->path().filename() == ".git") {
            entry.disable_recursion_pending();
            continue;
        }
        if (!entry->is_regular_file() || entry->is_symlink()) {
            continue;
        }
        const fs::path relative = fs::relative(entry->path(), tree);
        if (!same_file_content(entry->path(), seed_tree / relative)) {
            differing.push_back(relative);
        }
    }
    std::sort(differing.begin(), differing.end());
    return differing;
}

fs::file_time_type filesystem_now(const fs::path& directory) {
    const fs::path stamp = directory / fmt::format(".bootbench-now.{}", getpid());
    write_file_atomically(stamp, "");
    const auto now = fs::last_write_time(stamp);
    fs::remove(stamp);
    return now;
}

bool seed_build_dir(const BuildDirSeed& seed, const fs::path& tree, const fs::path& build_dir,
                    const fs::path& image, const std::string& final_config) {
    if (fs::exists(build_dir / image) || !fs::exists(seed.build_dir / image) ||
        !fs::exists(seed.build_dir / ".config") ||
        read_file(seed.build_dir / ".config") != final_config) {
        return false;
    }
    const fs::path copy = build_dir.parent_path() / fmt::format("seed.tmp.{}", getpid());
    fs::remove_all(copy);
    const auto result =
        run_command({"cp", "-a", "--reflink=auto", seed.build_dir.string(), copy.string()},
                    std::chrono::seconds(3600));
    if (result.exit_code != 0) {
        fs::remove_all(copy);
        throw RuntimeFailure(fmt::format("copying {} to start a variant's build failed:\n{}",
                                         seed.build_dir.string(), result.output));
    }
    try {
        rewrite_paths(copy, seed, tree, build_dir);
    } catch (...) {
        fs::remove_all(copy);
        throw;
    }
    fs::remove_all(build_dir);
    fs::rename(copy, build_dir);
    return true;
}

namespace {
// Whether kbuild's command file lists one of `paths` (its source_ line or a deps_ entry): a
// whitespace-separated word that is the path, so that a.c does not match a.cpp. One pass over
// the file, each word looked up in the set: searching every command file for every patched
// path took 6-8 minutes of CPU for a bisect step (issue 48 item 9c).
bool lists_any(std::string_view command_file, const std::unordered_set<std::string_view>& paths) {
    const auto space = [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; };
    for (size_t at = 0; at < command_file.size();) {
        while (at < command_file.size() && space(command_file[at])) {
            ++at;
        }
        size_t end = at;
        while (end < command_file.size() && !space(command_file[end])) {
            ++end;
        }
        if (end > at && paths.count(command_file.substr(at, end - at)) > 0) {
            return true;
        }
        at = end;
    }
    return false;
}

// "dir/.name.o.cmd" -> "dir/name.o"; empty for any other file.
fs::path object_of_command_file(const fs::path& relative) {
    const std::string name = relative.filename().string();
    if (name.size() < 8 || name.front() != '.' || !name.ends_with(".o.cmd")) {
        return {};
    }
    return relative.parent_path() / name.substr(1, name.size() - 5);
}
} // namespace

PatchedObjects patched_objects(const fs::path& build_dir, const fs::path& tree,
                               const std::vector<fs::path>& patched, fs::file_time_type since) {
    std::vector<std::string> paths;
    for (const auto& file : patched) {
        paths.push_back((tree / file).string());
    }
    const std::unordered_set<std::string_view> path_set(paths.begin(), paths.end());
    PatchedObjects objects;
    for (const auto& entry : fs::recursive_directory_iterator(build_dir)) {
        const fs::path relative = fs::relative(entry.path(), build_dir);
        const fs::path object = object_of_command_file(relative);
        if (object.empty() || !entry.is_regular_file() || !fs::exists(build_dir / object)) {
            continue;
        }
        const std::string command_file = read_file(entry.path());
        if (!lists_any(command_file, path_set)) {
            continue;
        }
        (fs::last_write_time(build_dir / object) < since ? objects.stale : objects.rewritten)
            .push_back(object);
    }
    std::sort(objects.stale.begin(), objects.stale.end());
    std::sort(objects.rewritten.begin(), objects.rewritten.end());
    return objects;
}

void make_patched_files_newer(const fs::path& tree, const fs::path& seed_tree) {
    // The filesystem's clock, not the process's: what make compares with the objects' times.
    const auto now = filesystem_now(tree);
    for (const auto& file : files_differing_from(tree, seed_tree)) {
        fs::last_write_time(tree / file, now);
    }
}

} // namespace bb
