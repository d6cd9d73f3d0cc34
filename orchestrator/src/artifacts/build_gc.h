#pragma once
#include "store/database.h"

#include <filesystem>
#include <functional>
#include <string>

namespace bb {

struct GcOptions {
    double days = 30; // remove what was not used for this long
    bool dry_run = false;
};

struct GcSummary {
    int builds = 0;     // rows removed with their artifacts and O= directory
    int build_dirs = 0; // O= directories no recorded build names (failed or older builds)
    int trees = 0;      // private source trees left without any O= directory
    unsigned long long bytes = 0;
};

using GcSay = std::function<void(const std::string&)>;

// `bootbench gc`: removes the builds unused for `days` — their artifacts, their O= directory and
// their row — then the O= directories no remaining build names and the private trees left with
// none. Holds the kernel build lock, so it never removes a tree a build is using. Only paths
// inside `cache` are ever removed: a row naming anything else is skipped with a warning (a
// database is data, not a list of paths root may delete).
GcSummary collect_build_garbage(Database& db, const std::filesystem::path& cache,
                                const GcOptions& options, const GcSay& say, const GcSay& warn);

} // namespace bb
