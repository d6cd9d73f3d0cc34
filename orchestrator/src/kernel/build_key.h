#pragma once
#include <string>
#include <utility>
#include <vector>

namespace bb {

// A content address made of tagged inputs (ccache's discipline): every input is hashed behind
// its tag and length, with a key-format version first, so the format can change safely and
// `explain()` shows exactly what a key was made of when a cache misses unexpectedly.
class KeyBuilder {
  public:
    explicit KeyBuilder(std::string format_version);
    KeyBuilder& add(const std::string& tag, const std::string& value);
    std::string hex() const;
    // One line per input: the tag, the value's size and hash, and a short preview.
    std::string explain() const;

  private:
    std::vector<std::pair<std::string, std::string>> m_inputs;
};

// The 16-hex sha256 prefixes of the patches in a build's "build key inputs" explanation (a
// `builds` row's `explain`), in order: the only record of which patches a stored build applied
// (its patches_json holds their names). Each hashes the patch's tree change
// (kernel/patch_change.h); builds keyed before that hashed the patch's bytes (repro accepts
// either).
std::vector<std::string> explained_patch_hashes(const std::string& explain);

} // namespace bb
