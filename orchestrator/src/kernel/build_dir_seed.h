#pragma once
#include <filesystem>
#include <string>
#include <vector>

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
// recompiles exactly the objects whose sources or headers the patches changed and relinks —
// provided the patched files are newer than every object of the seed. They are not by
// themselves: the patched tree may have been made long before the seed was built (a cache that
// kept the tree, a rebuilt seed), and make then recompiles nothing and links the unpatched image
// (measured: every seeded variant of one cache was its seed's image, byte for byte). So before
// every patched build, seeded or not, the files of its tree that are not the seed tree's own
// file (every unchanged file of both trees is a hard link of the same pristine file) get the
// current time: make_patched_files_newer.
//
// Copies `seed.build_dir` to `build_dir` (the copy replaces a directory that holds no finished
// image) and rewrites, in every text file and symbolic link of the copy, the seed's tree and O=
// paths into the variant's (kbuild records absolute source paths in its .cmd files and compares
// saved commands), keeping each file's modification time. Returns false, leaving `build_dir` as
// it was, when the seed is absent, unfinished or configured differently from `final_config`.
bool seed_build_dir(const BuildDirSeed& seed, const std::filesystem::path& tree,
                    const std::filesystem::path& build_dir, const std::filesystem::path& image,
                    const std::string& final_config);

// The files the patches wrote (files_differing_from) get the current time: newer than every
// object in any O= directory, so make recompiles them and what depends on them. A few files per
// series; the walk over the tree costs about a second.
void make_patched_files_newer(const std::filesystem::path& tree,
                              const std::filesystem::path& seed_tree);

// The objects of the O= directory `build_dir` whose kbuild command file (.NAME.o.cmd) lists one
// of the patched files (`patched`, relative to `tree`) as its source or a dependency, split by
// whether make wrote them at or after `since` (a time of this filesystem's clock,
// filesystem_now). Why: a patched image equal to its seed's, byte for byte, means either that
// make recompiled nothing (a defect: refused) or that the patches change no code the image
// holds (a comment, a pr_debug() without DYNAMIC_DEBUG, a module: a legitimate variant, as in a
// bisected series); only the objects built from the patched files tell which. kbuild's own
// dependency lists cover headers, .c files included by others and objects named unlike their
// source.
struct PatchedObjects {
    std::vector<std::filesystem::path> stale;     // built from a patched file, not rewritten
    std::vector<std::filesystem::path> rewritten; // built from a patched file, rewritten
};
PatchedObjects patched_objects(const std::filesystem::path& build_dir,
                               const std::filesystem::path& tree,
                               const std::vector<std::filesystem::path>& patched,
                               std::filesystem::file_time_type since);

// The current time as `directory`'s filesystem records it (a file written and read back): what
// make compares, which can lag the process's clock or have a coarser grain.
std::filesystem::file_time_type filesystem_now(const std::filesystem::path& directory);

// The files of `tree` that are neither the very file (same inode) of `seed_tree` at the same
// path nor a file of the same size and modification time: what the patches wrote. Relative
// paths, sorted. (By inode alone, a source unpacked again made every file "patched", and
// make_patched_files_newer then touched every file of the pristine tree through its links.)
std::vector<std::filesystem::path> files_differing_from(const std::filesystem::path& tree,
                                                        const std::filesystem::path& seed_tree);

} // namespace bb
