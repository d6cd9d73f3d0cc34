#include "pipeline/sample_scheduler.h"

#include "pipeline/quiet_sample.h"
#include "util/duration.h"
#include "util/interrupt.h"

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <fmt/format.h>
#include <map>
#include <mutex>
#include <thread>

namespace bb {

namespace {

// The queue and the counters every lane shares; every member function but `run_lane`'s
// unlocked stretches (gate, boot) holds the mutex.
class Scheduler {
  public:
    Scheduler(const std::vector<ScheduleLane>& lanes, const QuietSettings& quiet,
              const std::vector<SampleRef>& todo, const SampleWork& work, int already_stored)
        : m_lanes(lanes), m_quiet(quiet), m_work(work), m_pending(todo.begin(), todo.end()),
          m_already_stored(already_stored), m_running(host_count(lanes), 0),
          m_host_dead(host_count(lanes), false) {
        m_result.planned = static_cast<int>(todo.size());
    }

    ScheduleResult run() {
        std::vector<std::thread> threads;
        for (size_t lane = 0; lane < m_lanes.size(); ++lane) {
            threads.emplace_back([this, lane] { guarded_lane(lane); });
        }
        for (auto& thread : threads) {
            thread.join();
        }
        if (!m_pending.empty() && !interrupted() && m_result.quiet_stop.empty()) {
            m_result.stranded = m_pending.size();
            m_work.note(fmt::format("{} sample(s) not booted: every host of the fleet was lost",
                                    m_pending.size()));
        }
        return m_result;
    }

  private:
    static size_t host_count(const std::vector<ScheduleLane>& lanes) {
        size_t count = 0;
        for (const auto& lane : lanes) {
            count = std::max(count, lane.host + 1);
        }
        return count;
    }

    // A lane that cannot go on (its database write failed: locked too long, disk full) stops
    // every lane as Ctrl-C would; the caller ends the run "failed" with the reason.
    void guarded_lane(size_t lane) {
        try {
            run_lane(lane);
        } catch (const std::exception& e) {
            std::lock_guard lock(m_mutex);
            if (m_result.failure.empty()) {
                m_result.failure = e.what();
            }
            request_interrupt();
            m_changed.notify_all();
        }
    }

    void run_lane(size_t lane) {
        while (auto sample = take(lane)) {
            const std::string label = m_work.label(*sample);
            const auto verdict = m_work.gate(lane, label); // waits; the other lanes go on
            const std::optional<int> concurrency = admit(lane, *sample, label, verdict);
            if (!concurrency) {
                return;
            }
            BootRecord boot = m_work.boot(lane, *sample, *concurrency);
            const bool was_interrupted = boot.outcome == BootOutcome::InfraError && interrupted();
            const std::string lost =
                boot.outcome == BootOutcome::InfraError ? m_work.host_lost(lane) : "";
            if (!settle(lane, *sample, boot, verdict, was_interrupted, lost)) {
                return;
            }
        }
    }

    // The next sample for `lane`, or none when the lane is done. An empty queue is not the end
    // while other lanes still boot: a lost host's samples may come back, and precision repeats
    // plan the next round only once every lane is idle.
    std::optional<SampleRef> take(size_t lane) {
        std::unique_lock lock(m_mutex);
        m_changed.wait(lock,
                       [&] { return !m_pending.empty() || m_in_flight.empty() || stopping(lane); });
        if (m_pending.empty() && m_in_flight.empty() && !stopping(lane)) {
            plan_next_round();
        }
        if (m_pending.empty() || stopping(lane)) {
            return std::nullopt;
        }
        const SampleRef sample = m_pending.front();
        m_pending.pop_front();
        m_in_flight[lane] = m_work.label(sample);
        show_status();
        return sample;
    }

    bool stopping(size_t lane) const {
        return interrupted() || m_host_dead[m_lanes[lane].host] || !m_result.quiet_stop.empty();
    }

    void plan_next_round() {
        const auto round = m_work.next_round();
        m_pending.insert(m_pending.end(), round.begin(), round.end());
        m_result.planned += static_cast<int>(round.size());
        m_changed.notify_all();
    }

    // After the gate: the number of guests on the lane's host with this one, or none when the
    // sample is not booted now (the gate stopped the run, or another lane's gate did); it goes
    // back to the queue, which --resume boots.
    std::optional<int> admit(size_t lane, const SampleRef& sample, const std::string& label,
                             const std::optional<QuietVerdict>& verdict) {
        std::lock_guard lock(m_mutex);
        if (verdict && !wait_note(m_quiet, *verdict, label).empty()) {
            m_work.note(wait_note(m_quiet, *verdict, label));
            m_result.waited += 1;
            m_result.quiet_wait_seconds += verdict->waited_s;
        }
        if ((verdict && verdict->stops(m_quiet)) || !m_result.quiet_stop.empty()) {
            m_pending.push_front(sample);
            m_in_flight.erase(lane);
            if (verdict && !verdict->interrupted && m_result.quiet_stop.empty()) {
                m_result.quiet_stop = quiet_stop_reason(m_quiet, *verdict, label);
            }
            m_changed.notify_all();
            return std::nullopt;
        }
        return ++m_running[m_lanes[lane].host];
    }

    // Stores what the boot gave; false when the lane stops (interrupted, or its host lost).
    bool settle(size_t lane, const SampleRef& sample, BootRecord& boot,
                const std::optional<QuietVerdict>& verdict, bool was_interrupted,
                const std::string& lost) {
        std::lock_guard lock(m_mutex);
        --m_running[m_lanes[lane].host];
        m_in_flight.erase(lane);
        m_changed.notify_all();
        if (was_interrupted) {
            return false; // not a sample: a resume boots it again
        }
        if (!lost.empty()) {
            requeue_from_lost_host(lane, sample, boot, verdict, lost);
            return false;
        }
        m_failed += m_work.record(boot, sample, lane, verdict) ? 1 : 0;
        ++m_result.finished;
        m_busy_seconds += boot.wall_seconds;
        show_status();
        return true;
    }

    // Recorded (the failure shows in reports), then booted again on another host.
    void requeue_from_lost_host(size_t lane, const SampleRef& sample, BootRecord& boot,
                                const std::optional<QuietVerdict>& verdict,
                                const std::string& lost) {
        const ScheduleLane& host = m_lanes[lane];
        m_work.record_lost(boot, sample, lane, verdict, lost);
        m_pending.push_front(sample);
        ++m_result.requeued;
        if (!m_host_dead[host.host]) {
            m_host_dead[host.host] = true;
            ++m_result.hosts_lost;
            m_work.note(fmt::format("host {} lost ({}): its samples go to the other hosts",
                                    host.host_label, lost));
        }
        m_changed.notify_all();
    }

    void show_status() const {
        const int remaining = m_result.planned - m_result.finished;
        const std::string eta =
            m_result.finished == 0
                ? "?"
                : format_duration(m_busy_seconds / m_result.finished * remaining /
                                  static_cast<double>(m_lanes.size()));
        std::string current;
        for (const auto& [lane, label] : m_in_flight) {
            current += (current.empty() ? "" : " | ") + label;
        }
        m_work.status(fmt::format("[{}/{}] {} failed, ETA {} — {}",
                                  m_result.finished + m_already_stored,
                                  m_result.planned + m_already_stored, m_failed, eta, current));
    }

    const std::vector<ScheduleLane>& m_lanes;
    const QuietSettings& m_quiet;
    const SampleWork& m_work;
    std::mutex m_mutex;
    std::condition_variable m_changed;
    std::deque<SampleRef> m_pending;
    std::map<size_t, std::string> m_in_flight; // lane -> sample label
    int m_already_stored = 0;
    int m_failed = 0;
    double m_busy_seconds = 0;
    std::vector<int> m_running;    // guests running per host
    std::vector<bool> m_host_dead; // per host
    ScheduleResult m_result;
};

} // namespace

RunStatus finished_status(const ScheduleResult& executed) {
    if (interrupted()) {
        return RunStatus::Interrupted;
    }
    const bool left_behind = executed.stranded > 0 || !executed.quiet_stop.empty();
    return left_behind ? RunStatus::Failed : RunStatus::Done;
}

ScheduleResult execute_samples(const std::vector<ScheduleLane>& lanes, const QuietSettings& quiet,
                               const std::vector<SampleRef>& todo, const SampleWork& work,
                               int already_stored) {
    if (lanes.empty()) {
        return {};
    }
    return Scheduler(lanes, quiet, todo, work, already_stored).run();
}

} // namespace bb
