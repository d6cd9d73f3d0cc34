// The documented views of migration 0004 (v_samples, v_histograms, v_runs) over boots stored
// through BootStore, as bootbench writes them.
#include "store/boot_store.h"
#include "test_store.h"
#include "test_support.h"

#include <SQLiteCpp/SQLiteCpp.h>
#include <catch2/catch.hpp>
#include <optional>
#include <string>

namespace {

struct ViewStore {
    bb::test::TempDir dir;
    bb::Database db{dir / "views.sqlite"};
    bb::BootStore store{db};
    long long run = 0;
    int next_repeat = 0;

    ViewStore() {
        const bb::HostFacts facts = bb::test::bench_host_facts();
        bb::RunStart start;
        start.mode = "adhoc";
        start.experiment_id = store.ensure_experiment("srcu", "name: srcu");
        run = store.begin_run(store.ensure_host(facts), start);
    }

    long long boot(const std::string& params, bb::BootOutcome outcome,
                   std::optional<double> foreign_load,
                   std::vector<bb::HistogramBucket> histograms = {}) {
        bb::BootRecord record = bb::test::plain_boot_record(run, params, next_repeat++);
        record.foreign_load = foreign_load;
        record.outcome = outcome;
        record.outcome_reason = "test";
        record.boot_seconds = 2.5;
        record.wall_seconds = 3;
        record.started_at = "2024-01-01T00:00:00.000Z";
        record.histograms = std::move(histograms);
        return store.insert_boot(record);
    }

    std::string column(const std::string& sql) {
        SQLite::Statement query(db.sql(), sql);
        std::string out;
        while (query.executeStep()) {
            out += (out.empty() ? "" : ",") +
                   (query.getColumn(0).isNull() ? "NULL" : query.getColumn(0).getString());
        }
        return out;
    }
};

const std::string k_params =
    R"({"variant":"stock","hz":250,"srcutree.srcu_max_nodelay_phase":1000})";

} // namespace

TEST_CASE("v_samples: one row per boot with the report's used flag", "[migrations][views]") {
    ViewStore s;
    s.boot(k_params, bb::BootOutcome::Ok, 0.1);                 // used
    s.boot(k_params, bb::BootOutcome::Ok, 0.25);                // at the limit: used
    s.boot(k_params, bb::BootOutcome::Ok, 0.26);                // loaded
    s.boot(k_params, bb::BootOutcome::Panic, 0.0);              // failed
    s.boot(R"({"variant":"prefix"})", bb::BootOutcome::Ok, {}); // no load recorded: used
    CHECK(s.column("SELECT used FROM v_samples ORDER BY boot_id") == "1,1,0,0,1");
    CHECK(s.column("SELECT variant FROM v_samples ORDER BY boot_id") ==
          "stock,stock,stock,stock,prefix");
    CHECK(s.column("SELECT hz FROM v_samples ORDER BY boot_id") == "250,250,250,250,NULL");
    CHECK(s.column("SELECT srcu_max_nodelay_phase FROM v_samples WHERE boot_id = 1") == "1000");
    CHECK(s.column("SELECT experiment || ':' || run_id FROM v_samples WHERE boot_id = 1") ==
          "srcu:1");
    CHECK(s.column("SELECT boots || '/' || ok_boots || '/' || used_boots FROM v_runs") == "5/4/3");
}

TEST_CASE("v_histograms: buckets with their boot's grouping and used flag", "[migrations][views]") {
    ViewStore s;
    s.boot(k_params, bb::BootOutcome::Ok, 0.0, {{"lat", 0, 9999, 3}, {"lat", 10000, 19999, 4}});
    s.boot(k_params, bb::BootOutcome::Timeout, 0.0, {{"lat", 0, 9999, 100}});
    CHECK(s.column("SELECT sum(count) FROM v_histograms WHERE used") == "7");
    CHECK(s.column("SELECT sum(count) FROM v_histograms") == "107");
    CHECK(s.column("SELECT DISTINCT variant || '/' || name FROM v_histograms") == "stock/lat");
}

TEST_CASE("v_samples: loaded as stored, else the old rule, and used follows it",
          "[migrations][views][quiet]") {
    ViewStore s;
    s.boot(k_params, bb::BootOutcome::Ok, 0.26); // before schema 8: loaded by the old rule
    s.boot(k_params, bb::BootOutcome::Ok, 0.05); // before schema 8: not loaded
    s.boot(k_params, bb::BootOutcome::Ok, 0.26); // gated: loaded 0 as stored wins
    s.boot(k_params, bb::BootOutcome::Ok, 0.02); // gated: ran after a vain wait, loaded 1
    s.db.sql().exec("UPDATE boots SET loaded = 0, quiet_wait_seconds = 0, load_before = 0.01 "
                    "WHERE id = 3");
    s.db.sql().exec("UPDATE boots SET loaded = 1, quiet_wait_seconds = 600, load_before = 0.5 "
                    "WHERE id = 4");
    CHECK(s.column("SELECT loaded FROM v_samples ORDER BY boot_id") == "1,0,0,1");
    CHECK(s.column("SELECT used FROM v_samples ORDER BY boot_id") == "0,1,1,0");
    CHECK(s.column("SELECT quiet_wait_seconds FROM v_samples ORDER BY boot_id") ==
          "NULL,NULL,0.0,600.0");
    CHECK(s.column("SELECT load_before FROM v_samples WHERE boot_id = 4") == "0.5");
    CHECK(s.column("SELECT used_boots || '/' || loaded_boots || '/' || quiet_wait_seconds "
                   "FROM v_runs") == "2/2/600.0");
    CHECK(s.column("SELECT count(*) FROM boots WHERE loaded IS NULL") == "2");
}

TEST_CASE("v_histograms: a loaded boot's buckets are flagged and not used",
          "[migrations][views][quiet]") {
    ViewStore s;
    s.boot(k_params, bb::BootOutcome::Ok, 0.0, {{"lat", 0, 9999, 3}});
    s.boot(k_params, bb::BootOutcome::Ok, 0.0, {{"lat", 0, 9999, 5}});
    s.db.sql().exec("UPDATE boots SET loaded = 1 WHERE id = 2");
    CHECK(s.column("SELECT sum(count) FROM v_histograms WHERE used") == "3");
    CHECK(s.column("SELECT sum(count) FROM v_histograms WHERE loaded") == "5");
}
