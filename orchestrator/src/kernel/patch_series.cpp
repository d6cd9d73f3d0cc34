#include "kernel/patch_series.h"

#include "util/error.h"
#include "util/paths.h"
#include "util/run_command.h"

#include <algorithm>
#include <fmt/format.h>
#include <optional>
#include <sstream>
#include <string_view>
#include <unistd.h>

namespace bb {

namespace fs = std::filesystem;

std::string Patch::display_name() const {
    std::string name = file.filename().string();
    if (index > 0) {
        name += fmt::format(" #{}", index);
    }
    if (!subject.empty()) {
        name += fmt::format(" (\"{}\")", subject);
    }
    return name;
}

bool has_diff(const std::string& bytes) {
    // Renames and mode changes have "diff --git" but no ---/+++ lines.
    for (const char* marker : {"--- ", "+++ ", "diff --git "}) {
        if (bytes.rfind(marker, 0) == 0 ||
            bytes.find(std::string("\n") + marker) != std::string::npos) {
            return true;
        }
    }
    return false;
}

namespace {
// The first "Subject:" header line's text, without its CR. Plain parsing, not std::regex: a
// patch file is unbounded input, and std::regex recurses per character (a 40 KB line crashed).
std::string subject_of(const std::string& bytes) {
    static constexpr std::string_view k_header = "Subject:";
    for (size_t at = 0; at < bytes.size();) {
        size_t end = bytes.find('\n', at);
        end = end == std::string::npos ? bytes.size() : end;
        const std::string_view line(bytes.data() + at, end - at);
        if (line.starts_with(k_header)) {
            std::string subject(line.substr(k_header.size()));
            subject.erase(0, subject.find_first_not_of(" \t"));
            while (!subject.empty() && subject.back() == '\r') {
                subject.pop_back();
            }
            return subject;
        }
        at = end + 1;
    }
    return {};
}

// "Hunk #2 FAILED at 605." -> {"2", "605"}; nothing when the line says no such thing.
std::optional<std::pair<std::string, std::string>> failed_hunk(std::string_view line) {
    static constexpr std::string_view k_hunk = "Hunk #";
    static constexpr std::string_view k_failed = " FAILED at ";
    const auto digits = [](std::string_view text) {
        return text.substr(0, std::min(text.find_first_not_of("0123456789"), text.size()));
    };
    const size_t hunk = line.find(k_hunk);
    if (hunk == std::string_view::npos) {
        return std::nullopt;
    }
    const std::string_view rest = line.substr(hunk + k_hunk.size());
    const std::string_view number = digits(rest);
    if (number.empty() || !rest.substr(number.size()).starts_with(k_failed)) {
        return std::nullopt;
    }
    const std::string_view at = digits(rest.substr(number.size() + k_failed.size()));
    if (at.empty()) {
        return std::nullopt;
    }
    return std::pair{std::string(number), std::string(at)};
}
} // namespace

std::vector<Patch> split_mbox(const fs::path& file, const std::string& text) {
    // An mbox message starts with a "From " line at the beginning of the file or after an
    // empty line; git format-patch writes "From <sha> Mon Sep 17 00:00:00 2001".
    std::vector<size_t> starts;
    for (size_t at = 0; at < text.size();) {
        if (text.compare(at, 5, "From ") == 0 && (at == 0 || text[at - 1] == '\n')) {
            // After an empty line; "\r\n" line ends count too (CRLF mboxes).
            const bool message_start = at == 0 || (at >= 2 && text[at - 2] == '\n') ||
                                       (at >= 3 && text[at - 2] == '\r' && text[at - 3] == '\n');
            if (message_start) {
                starts.push_back(at);
            }
        }
        const size_t newline = text.find('\n', at);
        at = newline == std::string::npos ? text.size() : newline + 1;
    }
    std::vector<Patch> patches;
    if (starts.size() <= 1) {
        patches.push_back({file, 0, {}, text});
    } else {
        for (size_t i = 0; i < starts.size(); ++i) {
            const size_t end = i + 1 < starts.size() ? starts[i + 1] : text.size();
            patches.push_back(
                {file, static_cast<int>(i + 1), {}, text.substr(starts[i], end - starts[i])});
        }
    }
    for (auto& patch : patches) {
        patch.subject = subject_of(patch.bytes);
    }
    // A cover letter (a message without a diff) has nothing to apply. If no message has a
    // diff, keep them so the caller reports "contains no diff" instead of building unpatched.
    const bool any_diff = std::any_of(patches.begin(), patches.end(),
                                      [](const Patch& patch) { return has_diff(patch.bytes); });
    if (any_diff) {
        std::erase_if(patches, [](const Patch& patch) { return !has_diff(patch.bytes); });
    }
    return patches;
}

std::vector<Patch> load_patch_series(const std::vector<fs::path>& files) {
    std::vector<Patch> series;
    for (const auto& file : files) {
        if (!fs::is_regular_file(file)) {
            throw Error("patch not found: " + file.string());
        }
        auto patches = split_mbox(fs::absolute(file), read_file(file));
        for (auto& patch : patches) {
            if (!has_diff(patch.bytes)) {
                throw Error(fmt::format("{} contains no diff", patch.display_name()));
            }
            series.push_back(std::move(patch));
        }
    }
    return series;
}

namespace {
// "patching file kernel/rcu/srcutree.c" / "Hunk #2 FAILED at 605." -> readable failures.
std::string describe_failure(const std::string& output) {
    std::istringstream lines(output);
    std::string current_file;
    std::vector<std::string> failures;
    for (std::string text; std::getline(lines, text);) {
        if (text.rfind("patching file ", 0) == 0) {
            current_file = text.substr(14);
        }
        if (const auto hunk = failed_hunk(text)) {
            failures.push_back(
                fmt::format("{}: hunk #{} (at line {})", current_file, hunk->first, hunk->second));
        } else if (text.find("can't find file to patch") != std::string::npos ||
                   text.find("No file to patch") != std::string::npos) {
            failures.push_back("a file the patch names does not exist in the tree");
        } else if (text.find("Reversed (or previously applied)") != std::string::npos) {
            failures.push_back(current_file + ": already applied (reversed patch detected)");
        }
    }
    if (failures.empty()) {
        return output;
    }
    std::string text;
    for (const auto& failure : failures) {
        text += "\n  " + failure;
    }
    return text;
}
} // namespace

void apply_patch_series(const fs::path& tree, const std::vector<Patch>& patches) {
    const fs::path scratch = tree.parent_path() / fmt::format(".patch.{}", getpid());
    for (size_t i = 0; i < patches.size(); ++i) {
        const Patch& patch = patches[i];
        write_file_atomically(scratch, patch.bytes);
        const auto result =
            run_command({"patch", "-p1", "--forward", "--batch", "--no-backup-if-mismatch", "-r",
                         "-", "-d", tree.string(), "-i", scratch.string()});
        if (result.exit_code != 0) {
            fs::remove(scratch);
            throw Error(fmt::format("patch {}/{} {} does not apply:{}", i + 1, patches.size(),
                                    patch.display_name(), describe_failure(result.output)));
        }
    }
    std::error_code ignored;
    fs::remove(scratch, ignored);
}

} // namespace bb
