#include "kernel/git_series.h"

#include "util/error.h"
#include "util/run_command.h"

#include <algorithm>
#include <fmt/format.h>
#include <sstream>
#include <system_error>

namespace bb {

namespace fs = std::filesystem;

namespace {

std::vector<std::string> words_of(const std::string& text) {
    std::istringstream in(text);
    std::vector<std::string> words;
    for (std::string word; in >> word;) {
        words.push_back(word);
    }
    return words;
}

// `git -C repo ARGS...`; Error naming the command and git's message when it fails.
std::string git(const GitRange& range, std::vector<std::string> args) {
    args.insert(args.begin(), {"git", "-C", range.repo.string()});
    const CommandResult result = run_command(args);
    if (result.exit_code != 0) {
        std::string command = args[3];
        for (size_t i = 4; i < args.size(); ++i) {
            command += " " + args[i];
        }
        throw Error(
            fmt::format("git {} in {} failed: {}", command, range.repo.string(), result.output));
    }
    return result.output;
}

std::string commit_of(const GitRange& range, const std::string& ref) {
    const CommandResult result = run_command(
        {"git", "-C", range.repo.string(), "rev-parse", "--verify", "--quiet", ref + "^{commit}"});
    const auto words = words_of(result.output);
    if (result.exit_code != 0 || words.size() != 1) {
        throw Error(fmt::format("--commits: '{}' is not a commit in {}", ref, range.repo.string()));
    }
    return words[0];
}

void check_linear(const GitRange& range, const std::string& base, const std::string& tip,
                  const std::vector<std::string>& commits) {
    const std::string span = range.from + ".." + range.to;
    if (run_command({"git", "-C", range.repo.string(), "merge-base", "--is-ancestor", base, tip})
            .exit_code != 0) {
        throw Error(fmt::format("--commits {}: {} is not an ancestor of {}, so the range is no "
                                "series on top of it",
                                span, range.from, range.to));
    }
    if (commits.empty()) {
        throw Error(fmt::format("--commits {}: the range has no commits", span));
    }
    const auto merges = words_of(git(range, {"rev-list", "--merges", base + ".." + tip}));
    if (!merges.empty()) {
        throw Error(fmt::format("--commits {}: {} merge commit(s), e.g. {}: a series must be "
                                "linear (bisect a range without merges)",
                                span, merges.size(), merges[0].substr(0, 12)));
    }
    // --numstat prints "-\t-\tPATH" for a binary file, which patch(1) cannot apply.
    std::istringstream numstat(
        git(range, {"log", "--numstat", "--format=commit %H", base + ".." + tip}));
    std::string commit;
    for (std::string line; std::getline(numstat, line);) {
        if (line.rfind("commit ", 0) == 0) {
            commit = line.substr(7, 12);
        } else if (line.rfind("-\t-\t", 0) == 0) {
            throw Error(fmt::format("--commits {}: commit {} changes the binary file {}: the "
                                    "series is applied with patch(1), which cannot",
                                    span, commit, line.substr(4)));
        }
    }
}

// The patch files in `directory`, in series order (their names start with NNNN-).
std::vector<fs::path> exported_patches(const fs::path& directory) {
    std::vector<fs::path> patches;
    for (const auto& entry : fs::directory_iterator(directory)) {
        patches.push_back(entry.path());
    }
    std::sort(patches.begin(), patches.end());
    return patches;
}

// format-patch into `directory`, then each file renamed to NNNN-<commit>-<subject>.patch.
void format_patches(const GitRange& range, const std::string& base,
                    const std::vector<std::string>& commits, const fs::path& directory) {
    git(range, {"format-patch", "--no-signature", "--no-numbered", "--full-index", "-o",
                directory.string(), base + ".." + commits.back()});
    const std::vector<fs::path> written = exported_patches(directory);
    if (written.size() != commits.size()) {
        throw RuntimeFailure(fmt::format("git format-patch wrote {} files for {} commits",
                                         written.size(), commits.size()));
    }
    for (size_t i = 0; i < written.size(); ++i) {
        const std::string name = written[i].filename().string(); // NNNN-subject.patch
        fs::rename(written[i], directory / fmt::format("{}-{}{}", name.substr(0, 4),
                                                       commits[i].substr(0, 12), name.substr(4)));
    }
}

} // namespace

GitRange parse_git_range(const std::string& text) {
    const size_t colon = text.rfind(':');
    const size_t dots = text.find("..", colon == std::string::npos ? 0 : colon);
    if (colon == std::string::npos || colon == 0 || dots == std::string::npos ||
        dots == colon + 1 || dots + 2 >= text.size() || text.compare(dots, 3, "...") == 0) {
        throw Error(fmt::format("--commits {}: expected REPO:A..B (a local git repository, the "
                                "series' base A and its last commit B)",
                                text));
    }
    return {fs::absolute(text.substr(0, colon)), text.substr(colon + 1, dots - colon - 1),
            text.substr(dots + 2)};
}

GitSeries export_git_series(const GitRange& range, const fs::path& cache) {
    GitSeries series;
    series.base = commit_of(range, range.from);
    const std::string tip = commit_of(range, range.to);
    series.commits =
        words_of(git(range, {"rev-list", "--reverse", "--topo-order", series.base + ".." + tip}));
    check_linear(range, series.base, tip, series.commits);
    const fs::path directory = cache / "git-series" / (series.base + ".." + tip);
    if (fs::exists(directory)) {
        series.patches = exported_patches(directory);
        if (series.patches.size() == series.commits.size()) {
            return series;
        }
        fs::remove_all(directory); // an export cut short
    }
    const fs::path temporary = directory.string() + ".partial";
    fs::remove_all(temporary);
    fs::create_directories(temporary);
    format_patches(range, series.base, series.commits, temporary);
    fs::rename(temporary, directory);
    series.patches = exported_patches(directory);
    return series;
}

} // namespace bb
