#include "guest/foreign_packages.h"

#include "guest/apt_closure.h"
#include "util/arch.h"
#include "util/error.h"
#include "util/run_command.h"
#include "util/streaming_command.h"

#include <fmt/format.h>
#include <fstream>
#include <unistd.h>

namespace bb {

namespace fs = std::filesystem;

namespace {
std::string bare_name(const std::string& package) {
    return package.substr(0, package.find(':'));
}

std::string multiarch_triplet(Arch arch) {
    return std::string(profile(arch).gnu_triplet);
}

void run_or_throw(const StreamingCommand& command, const std::string& what,
                  const std::string& advice) {
    std::string tail;
    const auto result = run_streaming(command, [&tail](std::string_view line) {
        tail.append(line).append("\n");
        if (tail.size() > 2000) {
            tail.erase(0, tail.size() - 2000);
        }
    });
    if (result.interrupted) {
        throw Interrupted(what + ": interrupted");
    }
    // A package apt cannot fetch or dpkg cannot unpack: the machine's setup, not the request.
    if (result.exit_code != 0) {
        throw RuntimeFailure(
            fmt::format("{} failed (exit {}){}:\n{}", what, result.exit_code, advice, tail));
    }
}

// Follows symlinks inside an unpacked tree: an absolute target means the tree's root, not the
// host's (ld-linux-aarch64.so.1 -> /lib/aarch64-linux-gnu/...).
std::optional<fs::path> resolve_in_tree(const fs::path& tree, fs::path path) {
    for (int hops = 0; hops < 16; ++hops) {
        std::error_code ec;
        const auto status = fs::symlink_status(path, ec);
        if (ec || !fs::exists(status)) {
            return std::nullopt;
        }
        if (!fs::is_symlink(status)) {
            return fs::is_regular_file(status) ? std::optional(path) : std::nullopt;
        }
        const fs::path target = fs::read_symlink(path);
        path = target.is_absolute() ? tree / target.relative_path()
                                    : (path.parent_path() / target).lexically_normal();
    }
    return std::nullopt;
}
} // namespace

ForeignPackages::ForeignPackages(Arch arch, fs::path root,
                                 std::function<void(const std::string&)> note)
    : m_arch(arch), m_root(std::move(root)), m_note(std::move(note)) {}

std::string ForeignPackages::qualified(const std::string& package) const {
    return package.find(':') == std::string::npos ? package + ":" + std::string(debian_name(m_arch))
                                                  : package;
}

std::optional<ForeignPackages::Tree>
ForeignPackages::cached_tree(const std::string& package) const {
    const fs::path unpacked = m_root / "unpacked";
    if (!fs::exists(unpacked)) {
        return std::nullopt;
    }
    // <name>_<version>_<arch>: package names never contain '_'.
    for (const auto& entry : fs::directory_iterator(unpacked)) {
        const std::string name = entry.path().filename().string();
        if (name.rfind(package + "_", 0) == 0 && name.find(".tmp.") == std::string::npos) {
            return Tree{entry.path()};
        }
    }
    return std::nullopt;
}

fs::path ForeignPackages::unpack_closure(const std::string& package) {
    unpack_all(closure_of(package));
    return m_trees.at(bare_name(package)).dir;
}

// apt's answer, kept: the closure is resolved once per cache, like its trees are unpacked once.
std::vector<std::string> ForeignPackages::closure_of(const std::string& package) {
    const fs::path kept = m_root / "closures" / package;
    std::vector<std::string> closure;
    if (std::ifstream in(kept); in) {
        for (std::string line; std::getline(in, line);) {
            closure.push_back(line);
        }
        return closure;
    }
    fs::create_directories(kept.parent_path());
    const fs::path empty_status = m_root / "closures" / "dpkg-status-empty";
    std::ofstream(empty_status).flush(); // nothing counts as installed
    const auto result =
        run_command(apt_closure_argv(package, m_arch, empty_status), std::chrono::seconds(300));
    closure = parse_apt_simulation(result.output);
    if (result.exit_code != 0 || closure.empty()) {
        throw RuntimeFailure(
            fmt::format("apt could not resolve {}'s dependencies (exit {}; is {} a "
                        "foreign architecture of dpkg? scripts/setup.sh adds it and runs "
                        "apt-get update):\n{}",
                        qualified(package), result.exit_code, debian_name(m_arch), result.output));
    }
    // Written aside and renamed: a second process resolving at the same time reads all or none.
    const fs::path partial = fmt::format("{}.{}.tmp", kept.string(), getpid());
    std::ofstream out(partial);
    for (const auto& name : closure) {
        out << name << "\n";
    }
    out.close();
    fs::rename(partial, kept);
    return closure;
}

void ForeignPackages::unpack_all(const std::vector<std::string>& packages) {
    std::vector<std::string> wanted;
    for (const auto& package : packages) {
        const std::string bare = bare_name(package);
        if (m_trees.count(bare) != 0) {
            continue;
        }
        if (auto cached = cached_tree(bare)) {
            m_trees.emplace(bare, *cached);
        } else {
            wanted.push_back(package); // as apt printed it: arch-all packages have no ":arm64"
        }
    }
    if (wanted.empty()) {
        return;
    }
    const fs::path temp = m_root / fmt::format("tmp.{}", getpid());
    fs::remove_all(temp);
    fs::create_directories(temp / "deb");
    fs::create_directories(m_root / "debs");
    fs::create_directories(m_root / "unpacked");
    // apt drops to the _apt user for downloads; let it write into our directory.
    if (getuid() == 0) {
        run_command({"chown", "_apt", (temp / "deb").string()});
    }
    std::string names;
    for (const auto& package : wanted) {
        names += (names.empty() ? "" : " ") + package;
    }
    if (m_note) {
        m_note(fmt::format("downloading {} with apt", names));
    }
    std::vector<std::string> argv{"apt-get", "download", "-q"};
    argv.insert(argv.end(), wanted.begin(), wanted.end());
    run_or_throw({argv, temp / "deb", {}}, "apt-get download " + names,
                 fmt::format(" (is {} a foreign architecture of dpkg? scripts/setup.sh adds it "
                             "and runs apt-get update)",
                             debian_name(m_arch)));
    for (const auto& entry : fs::directory_iterator(temp / "deb")) {
        const fs::path& deb = entry.path();
        if (deb.extension() != ".deb") {
            continue;
        }
        const std::string stem = deb.stem().string();
        const fs::path root = temp / stem;
        run_or_throw({{"dpkg", "-x", deb.string(), root.string()}, {}, {}},
                     "dpkg -x " + deb.filename().string(), "");
        fs::rename(deb, m_root / "debs" / deb.filename());
        const fs::path tree = m_root / "unpacked" / stem;
        std::error_code raced; // another process unpacked the same .deb first: use its tree
        fs::rename(root, tree, raced);
        m_trees.emplace(stem.substr(0, stem.find('_')), Tree{tree});
    }
    fs::remove_all(temp);
    for (const auto& package : wanted) {
        if (m_trees.count(bare_name(package)) == 0) {
            throw RuntimeFailure("apt-get download " + package + " left no .deb file");
        }
    }
}

std::optional<fs::path> ForeignPackages::find_in(const fs::path& tree,
                                                 const std::string& soname) const {
    const std::string triplet = multiarch_triplet(m_arch);
    for (const fs::path& dir : {fs::path("lib") / triplet, fs::path("usr/lib") / triplet,
                                fs::path("lib"), fs::path("usr/lib")}) {
        if (auto path = resolve_in_tree(tree, tree / dir / soname)) {
            return path;
        }
    }
    return std::nullopt;
}

std::optional<PackagedFile> ForeignPackages::find(const std::string& soname) {
    for (const auto& [package, tree] : m_trees) {
        if (auto path = find_in(tree.dir, soname)) {
            return PackagedFile{*path, qualified(package)};
        }
    }
    return std::nullopt;
}

ElfDynamic ForeignPackages::read(const fs::path& path) {
    return read_elf_dynamic(path);
}

} // namespace bb
