#pragma once
#include <filesystem>
#include <string>
#include <vector>

namespace bb {

struct Patch {
    std::filesystem::path file; // where it came from
    int index = 0;              // position inside an mbox holding several patches (1-based)
    std::string subject;        // "Subject:" of the message, when there is one
    std::string bytes;

    std::string display_name() const;
};

// Reads `.patch` files and mboxes (git format-patch output, lore mboxes holding a series) in the
// given order; an mbox becomes one Patch per message.
std::vector<Patch> load_patch_series(const std::vector<std::filesystem::path>& files);
// True when the text holds a diff (unified ---/+++ lines or a git rename/mode change).
bool has_diff(const std::string& bytes);
std::vector<Patch> split_mbox(const std::filesystem::path& file, const std::string& text);

// Applies the series to `tree` in order with `patch -p1`. On the first failure throws Error
// naming the patch, the file and the hunk(s) that did not apply.
void apply_patch_series(const std::filesystem::path& tree, const std::vector<Patch>& patches);

} // namespace bb
