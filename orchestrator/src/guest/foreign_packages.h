#pragma once
#include "guest/library_closure.h"
#include "util/arch.h"

#include <filesystem>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace bb {

// Debian packages of a foreign architecture, fetched with `apt-get download PKG:ARCH` into
// ROOT/debs and unpacked with `dpkg -x` into ROOT/unpacked/<deb name> — never installed, so
// they cannot clash with the host's own. Each package is downloaded once; later runs find it
// unpacked and run no apt at all (delete ROOT to take newer versions).
class ForeignPackages : public LibraryProvider {
  public:
    ForeignPackages(Arch arch, std::filesystem::path root,
                    std::function<void(const std::string&)> note = {});

    // The unpacked tree of `package` (a bare name such as "qemu-system-arm").
    std::filesystem::path unpack(const std::string& package);
    // The .deb file names behind every tree used so far ("libc6_2.36-9_arm64.deb", ...).
    std::vector<std::string> deb_names() const;

    std::optional<PackagedFile> find(const std::string& soname) override;
    std::vector<std::string> unpack_candidates(const std::vector<MissingSoname>& missing) override;
    ElfDynamic read(const std::filesystem::path& path) override;

  private:
    struct Tree {
        std::filesystem::path dir;
        std::string deb_name;
    };
    // Downloads what is not cached yet in one apt-get call (each call costs seconds).
    void unpack_all(const std::vector<std::string>& packages);
    std::string qualified(const std::string& package) const;
    std::optional<Tree> cached_tree(const std::string& package) const;
    std::optional<std::filesystem::path> find_in(const std::filesystem::path& tree,
                                                 const std::string& soname) const;
    std::vector<std::string> depends_of(const std::string& package);

    Arch m_arch;
    std::filesystem::path m_root;
    std::function<void(const std::string&)> m_note;
    std::map<std::string, Tree> m_trees; // bare package name -> unpacked tree
    std::map<std::string, std::vector<std::string>> m_depends;
    std::set<std::string> m_tried; // candidates chosen for a soname search
};

} // namespace bb
