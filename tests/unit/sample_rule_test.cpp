// The used-sample rule exists twice, as SQL (the v_samples view) and as C++ (store/sample_rule.h):
// every combination of its inputs is stored, and the two must agree on each boot.
#include "store/sample_rule.h"
#include "test_store.h"

#include <SQLiteCpp/SQLiteCpp.h>
#include <catch2/catch.hpp>
#include <optional>
#include <string>
#include <vector>

TEST_CASE("v_samples and is_used_sample agree on every combination of the rule's inputs") {
    bb::test::Store s;
    const long long run = s.run("rule");
    const std::vector<bb::BootOutcome> outcomes{bb::BootOutcome::Ok, bb::BootOutcome::Timeout,
                                                bb::BootOutcome::Panic,
                                                bb::BootOutcome::InfraError};
    const std::vector<std::optional<bool>> loaded_flags{std::nullopt, false, true};
    // Around the legacy threshold, and no load recorded at all.
    const std::vector<std::optional<double>> loads{std::nullopt, 0.0, 0.25, 0.2501, 0.9};
    const std::vector<std::optional<std::string>> params{std::nullopt, "param-not-applied: x.y=1"};
    std::vector<std::pair<long long, bool>> expected;
    int repeat = 0;
    int warmup = 0; // warm-ups count down from -1 (schema 14)
    for (const auto outcome : outcomes) {
        for (const auto& loaded : loaded_flags) {
            for (const auto& load : loads) {
                for (const auto& not_applied : params) {
                    for (const bool is_warmup : {false, true}) {
                        bb::BootRecord boot =
                            bb::test::plain_boot_record(run, "{}", is_warmup ? --warmup : repeat++);
                        boot.outcome = outcome;
                        boot.outcome_reason = "test";
                        boot.boot_seconds = 1.0;
                        boot.loaded = loaded;
                        boot.foreign_load = load;
                        boot.params_not_applied = not_applied;
                        CHECK(bb::is_warmup(boot) == is_warmup);
                        expected.emplace_back(s.store.insert_boot(boot), bb::is_used_sample(boot));
                    }
                }
            }
        }
    }
    int used = 0;
    for (const auto& [boot_id, want] : expected) {
        SQLite::Statement select(s.db.sql(), "SELECT used FROM v_samples WHERE boot_id = ?");
        select.bind(1, static_cast<int64_t>(boot_id));
        REQUIRE(select.executeStep());
        INFO("boot " << boot_id);
        CHECK((select.getColumn(0).getInt() == 1) == want);
        used += want ? 1 : 0;
    }
    // ok x (loaded NULL: loads NULL, 0, 0.25 | loaded 0: every load) x parameters applied x
    // not a warm-up
    CHECK(used == 3 + 5);
}
