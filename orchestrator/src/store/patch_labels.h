#pragma once
// builds.patches_json, read and written in one place: the builder's label of each patch in
// application order ("0001-x.patch (\"[PATCH] subject\")"), a JSON list of strings. (0002's
// comment describes a list of {name, sha256} objects that was never written: the patches'
// hashes are the build key's inputs, in builds.explain; kernel/build_key.h reads them.)
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bb {

std::string patch_labels_json(const std::vector<std::string>& labels);

// The labels, or nothing when the stored text is not a JSON list of strings (a damaged row,
// which a listing shows as damaged).
std::optional<std::vector<std::string>> read_patch_labels(std::string_view patches_json);

// The labels; throws Error naming the build (the first 12 of `build_key`) and what the stored
// text holds instead, for a command that cannot go on without them.
std::vector<std::string> require_patch_labels(std::string_view patches_json,
                                              std::string_view build_key);

} // namespace bb
