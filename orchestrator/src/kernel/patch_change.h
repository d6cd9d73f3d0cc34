#pragma once
#include <string>

namespace bb {

// What a patch does to a tree, and nothing else: its file headers (paths without timestamps,
// git's mode, rename and copy lines) and its hunks (ranges without git's function context,
// exactly the lines the ranges count). Mail headers, the message, the diffstat, `diff --git`
// and `index` lines and a trailing signature are dropped. Build, tree and config keys hash this
// (docs/builds.md, "Keys"): the same change from a hand-written file, `git format-patch`, `b4`
// or a lore mbox builds the same kernel, so it is built once. A text without a hunk or header
// (has_diff false) keys by its bytes.
std::string patch_tree_change(const std::string& bytes);

} // namespace bb
