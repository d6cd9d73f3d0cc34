#pragma once
// A linear range of a local git repository as a patch series (`bootbench bisect --commits
// REPO:A..B`): each commit of A..B, oldest first, exported with `git format-patch` into the
// cache, so that prefix k of the series is A's tree plus its first k commits, which is commit k's
// own tree. The files are named NNNN-<12 hex of the commit>-<subject>.patch, so an answer that
// names a patch names the commit.
#include <filesystem>
#include <string>
#include <vector>

namespace bb {

struct GitRange {
    std::filesystem::path repo;
    std::string from; // A, as written
    std::string to;   // B, as written
};

// "REPO:A..B" (the repository's path may itself contain ':'; the last one separates). Throws
// Error for anything else.
GitRange parse_git_range(const std::string& text);

struct GitSeries {
    std::string base;                           // A's full hash
    std::vector<std::string> commits;           // full hashes, oldest first
    std::vector<std::filesystem::path> patches; // one per commit, same order
};

// Exports the range once into <cache>/git-series/<A>..<B>/ (kept: the same range is the same
// files, so a bisect resumes on the same patches). Throws Error when A or B is not a commit, A is
// not an ancestor of B, the range is empty or has a merge commit (no linear series), or a
// commit changes a binary file (the series is applied with patch(1)).
GitSeries export_git_series(const GitRange& range, const std::filesystem::path& cache);

} // namespace bb
