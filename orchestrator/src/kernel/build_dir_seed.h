#pragma once
#include <filesystem>
#include <string>

namespace bb {

// A finished O= directory to start a patched variant's build from: the same source and the same
// final .config, without the patches.
struct BuildDirSeed {
    std::filesystem::path tree;      // the unpatched private tree the seed was built from
    std::filesystem::path build_dir; // its O= directory
};

// Why: a variant that changes one file still paid ~100-200 s on 2 cores to rebuild its tree from
// ccache (one hashed lookup per object, then every link step), and CI builds about ten of them
// (issue 32, item 0). Started from a copy of the unpatched build, make's own dependency tracking
// recompiles exactly the objects whose sources or headers the patches changed — the patched
// files are newer than every object of the seed, every other file of the tree is a hard link of
// the same pristine file with the same time — and relinks.
//
// Copies `seed.build_dir` to `build_dir` (the copy replaces a directory that holds no finished
// image) and rewrites, in every text file and symbolic link of the copy, the seed's tree and O=
// paths into the variant's (kbuild records absolute source paths in its .cmd files and compares
// saved commands), keeping each file's modification time. Returns false, leaving `build_dir` as
// it was, when the seed is absent, unfinished or configured differently from `final_config`.
bool seed_build_dir(const BuildDirSeed& seed, const std::filesystem::path& tree,
                    const std::filesystem::path& build_dir, const std::filesystem::path& image,
                    const std::string& final_config);

} // namespace bb
