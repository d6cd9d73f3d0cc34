#pragma once
#include "store/database.h"

#include <filesystem>
#include <string>
#include <vector>

namespace bb {

struct ExportSummary {
    long long runs = 0;
    long long boots = 0;
    std::uintmax_t bytes = 0;
};

// Writes a copy of `source` holding only `run_ids` (every run when empty) and what they refer
// to — boots, metrics, histograms, events, stopped cells, experiments, hosts, builds — without
// the boots' consoles (console_gz, console_tail): the compact form a results page ships
// (docs/results/*.md). The copy is at the current schema, so every view and report reads it.
// Written through a temporary file and renamed: `out` is either the old file or the new one.
// The ids of every run of the named experiments, in order; Error for a name without runs.
std::vector<long long> runs_of_experiments(Database& db, const std::vector<std::string>& names);

// The checks every export format makes before it writes: throws Error when `out` is `source`
// itself, is not a regular file, or exists and `replace` (--force) is false.
void check_export_target(const Database& source, const std::filesystem::path& out, bool replace);

// Refuses `out` when it is `source` itself, and an existing `out` unless `replace` (--force).
// A failure or an interrupt removes the temporary copy; one left by a killed export is removed
// by the next export to the same path.
ExportSummary export_runs(Database& source, const std::vector<long long>& run_ids,
                          const std::filesystem::path& out, bool replace = false);

} // namespace bb
