#include "cli/commands.h"
#include "cli/option_checks.h"
#include "completion/value_kind.h"
#include "report/adhoc_query.h"
#include "store/database.h"
#include "store/migrations.h"
#include "util/did_you_mean.h"
#include "util/error.h"
#include "util/paths.h"

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <memory>

namespace bb {

namespace {

const std::vector<std::string>& query_formats() {
    static const std::vector<std::string> values{"text", "csv", "json", "md"};
    return values;
}
struct QueryCommandOptions {
    std::string sql;
    std::string file; // --file: the statement from a file
    std::string format = "text";
    double time_limit_seconds = 60;
    int memory_limit_mib = 512;
};

constexpr const char* k_query_help =
    R"(Run one read-only SQL statement against the results database and print its rows. The
database is opened read-only and with PRAGMA query_only, and only reading is allowed:
INSERT, UPDATE, DELETE, CREATE, DROP, ATTACH, DETACH, BEGIN/COMMIT/SAVEPOINT, every PRAGMA
but schema introspection (table_info, index_list, …) and functions that reach files or
extensions are refused before anything runs, and so is a second statement after the first.
A statement is stopped after --time-limit seconds (default 60) and when it needs more than
--memory-limit MiB (default 512, its rows included).

The views documented in docs/database.md are the easy way in: v_samples (one row per boot
with experiment, run, variant, hz, the main cmdline parameters, outcome, foreign load,
boot_seconds and whether the report uses it), v_metrics, v_histograms, v_runs, v_boots.

Formats: text (aligned columns and a row count), csv, json (one object per row), md (a
Markdown table, as results pages print theirs).

Examples:
  bootbench query "select variant, count(*), avg(boot_seconds) from v_samples
                   where used group by variant"
  bootbench query "select * from v_runs order by run_id desc limit 5"
  bootbench query --format csv "select * from v_samples where run_id = 12" > run12.csv
  bootbench query --format json "select name, sum(count) from v_histograms group by name"
  bootbench query --db docs/data/seed000-phase-table.sqlite --format md \
      --file docs/data/seed000-phase-table-boots.sql
)";

int run(const QueryCommandOptions& options, const GlobalOptions& global) {
    const auto format = parse_query_format(options.format);
    if (!format) {
        throw Error(fmt::format("--format {}: unknown format{}; use text, csv, json or md",
                                options.format,
                                did_you_mean_note(options.format, query_formats())));
    }
    if (!(options.time_limit_seconds > 0) || options.memory_limit_mib <= 0) {
        throw Error("--time-limit and --memory-limit must be positive");
    }
    QueryLimits limits;
    limits.time = std::chrono::milliseconds(
        static_cast<std::int64_t>(std::ceil(options.time_limit_seconds * 1000)));
    limits.memory_bytes = std::int64_t{options.memory_limit_mib} << 20;
    if (options.sql.empty() == options.file.empty()) {
        throw Error("give one statement: as the argument, or in a file with --file");
    }
    // A statement is text a person wrote: 1 MiB is far more than any results page's query.
    constexpr std::size_t k_largest_statement = 1u << 20;
    const std::string sql =
        options.file.empty() ? options.sql : read_user_file(options.file, k_largest_statement);
    Database db(global.db_path(), Database::Mode::ReadOnly);
    QueryResult result;
    try {
        result = run_read_only_query(db.sql(), sql, limits);
    } catch (const Error& e) {
        // A view this binary knows but the file lacks: the database predates it.
        const std::string message = e.what();
        if (message.find("no such table: v_") != std::string::npos &&
            db.schema_version() < latest_schema_version(bundled_migrations())) {
            throw Error(fmt::format("{}; {} has schema version {}, older than this bootbench's "
                                    "({}): any writing command (boot, run) adds the views",
                                    message, db.path().string(), db.schema_version(),
                                    latest_schema_version(bundled_migrations())));
        }
        if (message.find("no such table: ") != std::string::npos) {
            throw Error(fmt::format("{}; the database's views are {} (docs/reporting.md, "
                                    "\"Ad-hoc SQL\", describes their columns)",
                                    message, fmt::join(view_names(db.sql()), ", ")));
        }
        throw;
    }
    const std::string out = render_query_result(result, *format);
    std::fwrite(out.data(), 1, out.size(), stdout);
    return 0;
}
} // namespace

void add_query_command(CLI::App& app, GlobalOptions& global, int& exit_status) {
    auto options = std::make_shared<QueryCommandOptions>();
    CLI::App* cmd =
        app.add_subcommand("query", "Run one read-only SQL statement on the results database");
    cmd->footer(k_query_help);
    cmd->add_option("SQL", options->sql, "one SELECT (or WITH … SELECT) statement");
    cmd->add_option("--file", options->file,
                    "read the statement from FILE (a results page's query, for one)");
    cmd->add_option("--format", options->format, "text (default), csv, json or md")
        ->type_name(choice_of(query_formats()));
    cmd->add_option("--time-limit", options->time_limit_seconds,
                    "stop the statement after this many seconds (default 60)")
        ->check(number_in(0.001, 86400));
    cmd->add_option("--memory-limit", options->memory_limit_mib,
                    "stop the statement when it needs more MiB than this (default 512)");
    cmd->callback([options, &global, &exit_status] { exit_status = run(*options, global); });
}

} // namespace bb
