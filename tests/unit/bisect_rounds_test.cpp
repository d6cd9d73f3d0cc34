// A bisect step's rounds on a scratch database (bisect/bisect_rounds.h): what is stored decides,
// so a resumed step goes on exactly where it stopped.
#include "bisect/bisect_rounds.h"
#include "test_store.h"

#include <catch2/catch.hpp>

namespace {

const std::string k_older = R"({"variant":"prefix-0"})";
const std::string k_newer = R"({"variant":"prefix-4"})";

struct StepStore {
    bb::test::Store s;
    long long run = s.run("delay-bisect-0v4");
    bb::StepJudge judge{{k_older, k_newer}, {}, {6, 0.05, 0}};

    void boot(const std::string& cell, int round, double seconds,
              bb::BootOutcome outcome = bb::BootOutcome::Ok) {
        bb::BootRecord record = s.record(run, cell, seconds, outcome);
        record.repeat_index = round;
        s.store.insert_boot(record);
    }
    void rounds(int from, int to) { // both prefixes, the newer 300 ms slower
        for (int round = from; round < to; ++round) {
            boot(k_older, round, 1.5 + 0.01 * round);
            boot(k_newer, round, 1.8 + 0.01 * round);
        }
    }
    std::vector<bb::SampleRef> next() {
        bb::BisectRounds planner(s.db, judge, 1);
        return planner.next_round(run, [](const std::string&) {});
    }
};

} // namespace

TEST_CASE("bisect rounds: one round of both prefixes until the step decides", "[bisect]") {
    StepStore step;
    step.rounds(0, 4);
    auto round = step.next();
    std::sort(round.begin(), round.end());
    CHECK(round == std::vector<bb::SampleRef>{{0, 4}, {1, 4}});
    CHECK(bb::judge_stored_step(step.s.db, step.run, step.judge).verdict.kind ==
          bb::StepVerdict::Kind::Continue);

    step.rounds(4, 5); // 5 rounds that do not overlap: the first look decides
    const bb::StoredStep stored = bb::judge_stored_step(step.s.db, step.run, step.judge);
    CHECK(stored.verdict.kind == bb::StepVerdict::Kind::Changed);
    CHECK(stored.verdict.rounds == 5);
    CHECK(stored.boots == 10);
    CHECK(stored.verdict.shift.estimate == Approx(0.3));
    CHECK(step.next().empty());
}

TEST_CASE("bisect rounds: a round cut short is completed first", "[bisect]") {
    StepStore step;
    step.rounds(0, 3);
    step.boot(k_newer, 3, 1.83); // Ctrl-C before prefix-0's boot of round 3
    CHECK(step.next() == std::vector<bb::SampleRef>{{0, 3}});
    CHECK(bb::judge_stored_step(step.s.db, step.run, step.judge).verdict.rounds == 3);
}

TEST_CASE("bisect rounds: a middle step boots three prefixes a round", "[bisect]") {
    StepStore step;
    const std::string upper = R"({"variant":"prefix-8"})";
    step.judge.cells.push_back(upper);
    step.rounds(0, 5);
    auto round = step.next();
    std::sort(round.begin(), round.end());
    CHECK(round == std::vector<bb::SampleRef>{{2, 0}});
    for (int r = 0; r < 5; ++r) {
        step.boot(upper, r, 1.8 + 0.01 * r);
    }
    // prefix-4 has moved from prefix-0 and is like prefix-8: the change is in (0, 4].
    const bb::StoredStep stored = bb::judge_stored_step(step.s.db, step.run, step.judge);
    CHECK(stored.verdict.kind == bb::StepVerdict::Kind::LikeNew);
    CHECK(stored.boots == 15);
}

TEST_CASE("bisect rounds: failed boots are rounds without a value", "[bisect]") {
    StepStore step;
    for (int round = 0; round < 6; ++round) {
        step.boot(k_older, round, 1.5);
        step.boot(k_newer, round, 0, bb::BootOutcome::Panic);
    }
    const bb::StoredStep stored = bb::judge_stored_step(step.s.db, step.run, step.judge);
    CHECK(stored.verdict.kind == bb::StepVerdict::Kind::Undecided);
    CHECK(stored.boots == 12);
    CHECK(step.next().empty());
}
