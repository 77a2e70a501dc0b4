#include "adjudicator/service/timekeeper.h"

#include <algorithm>
#include <utility>
#include <vector>

#include <cstdio>
#include "absl/strings/str_cat.h"
#include "adjudicator/engine/proto_time.h"

namespace arbiter::service {
namespace {

// How long the thread sleeps at most with no deadline due: also how quickly
// Stop() is noticed.
constexpr absl::Duration kPoll = absl::Milliseconds(200);

// The server's log is its stderr.
void LogError(const std::string& what, const absl::Status& s) {
  std::fprintf(stderr, "arbiter serve: timekeeper: %s: %s\n", what.c_str(), s.ToString().c_str());
}

}  // namespace

Timekeeper::Timekeeper(ledger::Ledger* ledger, GameFolds* folds, std::function<absl::Time()> now)
    : ledger_(ledger), folds_(folds), now_(std::move(now)) {}

Timekeeper::~Timekeeper() { Stop(); }

void Timekeeper::Start() { thread_ = std::thread([this] { Run(); }); }

void Timekeeper::Stop() {
  stop_ = true;
  if (thread_.joinable()) thread_.join();
}

void Timekeeper::Run() {
  absl::StatusOr<std::unique_ptr<ledger::Subscription>> sub = ledger_->SubscribeLog(0);
  if (!sub.ok()) {
    LogError("cannot follow the log", sub.status());
    return;
  }
  while (!stop_) {
    // Sleep until the earliest deadline, or a poll interval.
    absl::Duration wait = kPoll;
    std::vector<std::pair<std::string, Timer>> due;
    const absl::Time now = now_();
    for (const auto& [game, timer] : timers_) {
      if (timer.deadline.fire_at <= now) {
        due.emplace_back(game, timer);
      } else {
        wait = std::min(wait, timer.deadline.fire_at - now);
      }
    }
    for (const auto& [game, timer] : due) Fire(game, timer);
    if (!due.empty()) wait = absl::ZeroDuration();

    absl::StatusOr<std::vector<v1::LedgerEntry>> entries = (*sub)->Next(wait, 1024);
    if (!entries.ok()) {
      if (!absl::IsCancelled(entries.status())) {
        LogError("reading the log", entries.status());
      }
      return;
    }
    absl::flat_hash_set<std::string> touched;
    for (const v1::LedgerEntry& entry : *entries) {
      if (entry.revision() == 1) {
        v1::Event event;
        if (event.ParseFromString(entry.event()) && event.has_game_created() &&
            event.game_created().live()) {
          live_.insert(entry.game_id());
        }
      }
      if (live_.contains(entry.game_id())) touched.insert(entry.game_id());
    }
    for (const std::string& game : touched) Recompute(game);
  }
}

void Timekeeper::Recompute(const std::string& game_id) {
  std::optional<Timer> timer;
  bool over = false;
  absl::Status s = folds_->With(game_id, [&](const GameFold& fold) {
    over = fold.adjudicator->result() != nullptr;
    if (std::optional<Deadline> d = NextDeadline(*fold.adjudicator); d.has_value()) {
      timer = Timer{fold.revision, *std::move(d)};
    }
  });
  if (!s.ok()) LogError(absl::StrCat("game ", game_id), s);
  if (over) live_.erase(game_id);
  if (timer.has_value()) {
    timers_[game_id] = *std::move(timer);
  } else {
    timers_.erase(game_id);
  }
}

void Timekeeper::Fire(const std::string& game_id, const Timer& timer) {
  v1::Event event = timer.deadline.event;
  // One key per (game, revision): a server that restarts mid-append retries
  // the same event rather than appending a second one.
  event.set_idempotency_key(absl::StrCat("server-clock/", game_id, "/", timer.revision));
  absl::StatusOr<std::vector<v1::LedgerEntry>> r = ledger_->Append(
      game_id, ledger::ExpectedRevision::Exactly(timer.revision), {std::move(event)});
  auto it = timers_.find(game_id);
  // Whatever happened, this timer is spent: success and a lost race both
  // bring a new event that recomputes the deadline.
  if (it != timers_.end() && it->second.revision == timer.revision) timers_.erase(it);
  if (!r.ok() && !absl::IsAborted(r.status())) {
    LogError(absl::StrCat("game ", game_id, ": appending the ", timer.deadline.predicted.clause(),
                          " flag"),
             r.status());
  }
}

}  // namespace arbiter::service
