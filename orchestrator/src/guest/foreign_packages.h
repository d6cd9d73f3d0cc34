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

// Debian packages of a foreign architecture: apt resolves a package's whole dependency closure
// (guest/apt_closure.h, remembered in ROOT/closures/<package>), `apt-get download` fetches what
// is not cached into ROOT/debs and `dpkg -x` unpacks each into ROOT/unpacked/<deb name> — never
// installed, so they cannot clash with the host's own. Each package is downloaded once; later
// runs find the closure and its trees cached and run no apt at all (delete ROOT to take newer
// versions).
class ForeignPackages : public LibraryProvider {
  public:
    ForeignPackages(Arch arch, std::filesystem::path root,
                    std::function<void(const std::string&)> note = {});

    // The unpacked tree of `package` (a bare name such as "qemu-system-arm"), with every package
    // of its dependency closure unpacked beside it.
    std::filesystem::path unpack_closure(const std::string& package);

    std::optional<PackagedFile> find(const std::string& soname) override;
    ElfDynamic read(const std::filesystem::path& path) override;

  private:
    struct Tree {
        std::filesystem::path dir;
    };
    // Downloads what is not cached yet in one apt-get call (each call costs seconds).
    void unpack_all(const std::vector<std::string>& packages);
    std::string qualified(const std::string& package) const;
    std::optional<Tree> cached_tree(const std::string& package) const;
    std::optional<std::filesystem::path> find_in(const std::filesystem::path& tree,
                                                 const std::string& soname) const;
    std::vector<std::string> closure_of(const std::string& package);

    Arch m_arch;
    std::filesystem::path m_root;
    std::function<void(const std::string&)> m_note;
    std::map<std::string, Tree> m_trees; // bare package name -> unpacked tree
};

} // namespace bb
