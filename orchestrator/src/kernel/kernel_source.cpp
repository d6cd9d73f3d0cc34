#include "kernel/kernel_source.h"

#include "util/error.h"
#include "util/file_lock.h"
#include "util/hash.h"
#include "util/paths.h"
#include "util/run_command.h"
#include "util/streaming_command.h"
#include "util/trim.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <fmt/format.h>
#include <fstream>
#include <unistd.h>

namespace bb {

namespace fs = std::filesystem;

namespace {
constexpr const char* k_complete_stamp = ".bootbench-complete";

// A package apt cannot serve is missing from this machine's setup (its suites, its package
// lists): the environment, like a missing tool.
std::string candidate_version(const std::string& package) {
    const auto policy = run_command({"apt-cache", "policy", package});
    const auto at = policy.output.find("Candidate:");
    if (at == std::string::npos) {
        throw RuntimeFailure(fmt::format("apt does not know {}: run scripts/setup.sh (it adds the "
                                         "bookworm-backports suite from this machine's mirror)",
                                         package));
    }
    std::string version = policy.output.substr(at + 10);
    version = version.substr(version.find_first_not_of(' '));
    version = version.substr(0, version.find('\n'));
    if (version == "(none)") {
        throw RuntimeFailure(fmt::format("no candidate version of {}: run apt-get update, or "
                                         "scripts/setup.sh",
                                         package));
    }
    return version;
}

void run_checked(const StreamingCommand& command, const std::string& what) {
    std::string tail;
    const auto result = run_streaming(command, [&tail](std::string_view line) {
        tail.append(line).append("\n");
        if (tail.size() > 4000) {
            tail.erase(0, tail.size() - 4000);
        }
    });
    if (result.interrupted) {
        throw Interrupted(what + ": interrupted");
    }
    if (result.exit_code != 0) {
        throw RuntimeFailure(fmt::format("{} failed (exit {}):\n{}", what, result.exit_code, tail));
    }
}

// `apt-cache policy` costs about a second; a cache hit must not. Its answer only changes when
// apt's package lists do, so it is remembered together with their directory's mtime.
std::string cached_candidate_version(const std::string& package, const fs::path& cache) {
    std::error_code ec;
    const auto lists = fs::last_write_time("/var/lib/apt/lists", ec);
    const std::string stamp = ec ? "" : std::to_string(lists.time_since_epoch().count());
    const fs::path memo = cache / "sources" / (package + ".candidate");
    if (!stamp.empty() && fs::exists(memo)) {
        std::ifstream in(memo);
        std::string seen;
        std::string version;
        if (in >> seen >> version && seen == stamp) {
            return version;
        }
    }
    const std::string version = candidate_version(package);
    if (!stamp.empty()) {
        fs::create_directories(memo.parent_path());
        write_file_atomically(memo, stamp + " " + version + "\n");
    }
    return version;
}

// Debian replaces a package's version without notice (6.12.117 went while results measured on
// it were shipped): a pinned version apt no longer serves is named, with what it serves now.
void require_served(const std::string& package, const std::string& version) {
    if (run_command({"apt-cache", "show", package + "=" + version}).exit_code == 0) {
        return;
    }
    throw RuntimeFailure(fmt::format(
        "source debian:{}={} is pinned, but apt does not serve that version (it serves {}): "
        "pin a version apt serves, drop the pin to take apt's, or give a local tree of {} with "
        "--source/kernel.source",
        package, version, candidate_version(package), version));
}

SourceTree debian_source(const SourceSpec& spec, const fs::path& cache,
                         const ProgressFn& progress) {
    const std::string version =
        spec.version.empty() ? cached_candidate_version(spec.package, cache) : spec.version;
    const fs::path dir = cache / "sources" / (spec.package + "_" + version);
    SourceTree tree{dir, fmt::format("debian-package:{}={}", spec.package, version), false};
    if (fs::exists(dir / k_complete_stamp)) {
        return tree;
    }
    // Two bootbench processes unpacking the same version would each replace the other's tree
    // while it is being linked from. Its own lock: a cache hit, which resolves the source too,
    // must not wait for another build.
    const FileLock unpack_lock(cache / "locks" / "kernel-source.lock", "another source unpack",
                               FileLock::Mode::WaitIfHeld, progress);
    if (fs::exists(dir / k_complete_stamp)) {
        return tree;
    }
    const fs::path temp = cache / "sources" / fmt::format("tmp.{}.{}", spec.package, getpid());
    fs::remove_all(temp);
    fs::create_directories(temp / "deb");
    // apt drops to the _apt user for downloads; let it write into our directory.
    if (getuid() == 0) {
        run_command({"chown", "_apt", (temp / "deb").string()});
    }
    if (!spec.version.empty()) {
        require_served(spec.package, version);
    }
    progress(fmt::format("downloading {}={} with apt", spec.package, version));
    run_checked({{"apt-get", "download", "-q", spec.package + "=" + version}, temp / "deb", {}},
                "apt-get download " + spec.package);
    fs::path deb;
    for (const auto& entry : fs::directory_iterator(temp / "deb")) {
        if (entry.path().extension() == ".deb") {
            deb = entry.path();
        }
    }
    progress("unpacking the package");
    run_checked({{"dpkg", "-x", deb.string(), (temp / "root").string()}, {}, {}}, "dpkg -x");
    fs::path tarball;
    for (const auto& entry : fs::directory_iterator(temp / "root" / "usr" / "src")) {
        if (entry.path().filename().string().find(".tar") != std::string::npos) {
            tarball = entry.path();
        }
    }
    if (tarball.empty()) {
        throw RuntimeFailure("no source tarball in " + deb.string());
    }
    progress(
        fmt::format("unpacking {} (once; later builds reuse it)", tarball.filename().string()));
    fs::create_directories(temp / "tree");
    run_checked({{"tar", "-xf", tarball.string(), "-C", (temp / "tree").string()}, {}, {}},
                "tar -xf " + tarball.filename().string());
    fs::path unpacked;
    for (const auto& entry : fs::directory_iterator(temp / "tree")) {
        unpacked = entry.path();
    }
    std::ofstream(unpacked / k_complete_stamp) << tree.identity << "\n";
    fs::remove_all(dir);
    fs::rename(unpacked, dir);
    fs::remove_all(temp);
    return tree;
}

SourceTree local_source(const SourceSpec& spec) {
    const fs::path root = fs::canonical(spec.path);
    if (!fs::exists(root / "Makefile") || !fs::exists(root / "Kconfig")) {
        throw Error(root.string() + " does not look like a kernel tree (no Makefile/Kconfig)");
    }
    if (fs::exists(root / ".config")) {
        throw Error(root.string() +
                    " has a .config: out-of-tree (O=) builds need a clean tree; run "
                    "'make mrproper' there or give a clean copy");
    }
    SourceTree tree{root, "", true};
    const auto head = run_command({"git", "-C", root.string(), "rev-parse", "HEAD"});
    if (head.exit_code == 0) {
        const auto diff = run_command({"git", "-C", root.string(), "diff", "HEAD"});
        tree.identity = fmt::format("git-tree:{}+diff:{}", trimmed(head.output),
                                    sha256_hex(diff.output).substr(0, 16));
    } else {
        // Not versioned: the identity is the content of every tracked-looking source file's
        // metadata would be costly; use path + modification time of the top Makefile and warn.
        const auto stamp = fs::last_write_time(root / "Makefile").time_since_epoch().count();
        tree.identity = fmt::format("local:{}@{}", root.string(), stamp);
    }
    return tree;
}

SourceTree git_source(const SourceSpec& spec, const fs::path& cache) {
    const auto commit = run_command(
        {"git", "-C", spec.path.string(), "rev-parse", "--verify", spec.ref + "^{commit}"});
    if (commit.exit_code != 0) {
        throw Error(fmt::format("git: '{}' is not a commit in {}", spec.ref, spec.path.string()));
    }
    const std::string sha = trimmed(commit.output);
    const fs::path worktree = cache / "sources" / ("git-" + sha);
    if (!fs::exists(worktree / "Makefile")) {
        run_checked({{"git", "-C", spec.path.string(), "worktree", "add", "--detach",
                      worktree.string(), sha},
                     {},
                     {}},
                    "git worktree add");
    }
    return {worktree, "git:" + sha, false};
}
} // namespace

SourceTree resolve_source(const SourceSpec& spec, const fs::path& cache,
                          const ProgressFn& progress) {
    switch (spec.kind) {
    case SourceSpec::Kind::DebianPackage:
        return debian_source(spec, cache, progress);
    case SourceSpec::Kind::LocalTree:
        return local_source(spec);
    case SourceSpec::Kind::GitRef:
        return git_source(spec, cache);
    }
    throw Error("unknown source kind");
}

} // namespace bb
