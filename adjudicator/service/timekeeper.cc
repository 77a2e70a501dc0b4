#include "adjudicator/service/timekeeper.h"

#include <algorithm>
#include <cstdio>
#include <utility>

#include "absl/strings/str_cat.h"
#include "ledger/stream.h"

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

Timekeeper::Timekeeper(ledger::Ledger* ledger, GameFolds* folds, Recorder* recorder,
                       std::function<absl::Time()> now)
    : ledger_(ledger),
      folds_(folds),
      recorder_(recorder),
      now_(std::move(now)),
      listener_(
          folds_->AddListener([this](const std::vector<GameView>& games) { Committed(games); })) {}

Timekeeper::~Timekeeper() {
  Stop();
  folds_->RemoveListener(listener_);
}

Caller Timekeeper::ServerClock() {
  Caller clock;
  clock.key = "server:clock";
  clock.actor = "server:clock";
  return clock;
}

void Timekeeper::Committed(const std::vector<GameView>& games) {
  absl::MutexLock lock(&mu_);
  if (!started_ || stop_) return;  // Start() reads what is already there
  for (const GameView& g : games) {
    if (g.game().game().live()) committed_.push_back(g);
  }
}

void Timekeeper::Start() {
  {
    absl::MutexLock lock(&mu_);
    started_ = true;
  }
  // The live games in progress: every gameCreated with `live`, once.
  std::vector<std::string> live;
  for (uint64_t after = 0;;) {
    absl::StatusOr<std::vector<v1::LedgerEntry>> entries = ledger_->ReadLog(after, 1024);
    if (!entries.ok()) {
      LogError("cannot read the log", entries.status());
      break;
    }
    if (entries->empty()) break;
    for (const v1::LedgerEntry& entry : *entries) {
      after = entry.position();
      if (entry.revision() != 1 || ledger::IsTournamentStream(entry.game_id())) continue;
      v1::Event event;
      if (event.ParseFromString(entry.event()) && event.game_created().live()) {
        live.push_back(entry.game_id());
      }
    }
  }
  for (const std::string& game : live) {
    absl::StatusOr<GameView> view = folds_->Get(game);
    if (!view.ok()) {
      LogError(absl::StrCat("game ", game), view.status());
      continue;
    }
    Recompute(*view);
  }
  thread_ = std::thread([this] { Run(); });
}

void Timekeeper::Stop() {
  {
    absl::MutexLock lock(&mu_);
    stop_ = true;
  }
  if (thread_.joinable()) thread_.join();
}

void Timekeeper::Run() {
  for (;;) {
    // Sleep until the earliest deadline, a commit, or a poll interval.
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

    std::vector<GameView> committed;
    {
      absl::MutexLock lock(&mu_);
      auto woken = [this]()
                       ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) { return stop_ || !committed_.empty(); };
      mu_.AwaitWithTimeout(absl::Condition(&woken), wait);
      if (stop_) return;
      committed.swap(committed_);
    }
    for (const GameView& g : committed) Recompute(g);
  }
}

void Timekeeper::Recompute(const GameView& game) {
  auto it = timers_.find(game.game_id);
  // Commits may arrive out of order relative to a fold read at Start().
  if (it != timers_.end() && it->second.revision > game.revision) return;
  if (std::optional<Deadline> d = NextDeadline(game.game()); d.has_value()) {
    timers_[game.game_id] = Timer{game.revision, *std::move(d)};
  } else if (it != timers_.end()) {
    timers_.erase(it);
  }
}

void Timekeeper::Fire(const std::string& game_id, const Timer& timer) {
  v1::Event event = timer.deadline.event;
  // One key per (game, revision): a server that restarts mid-append retries
  // the same event rather than appending a second one.
  event.set_idempotency_key(absl::StrCat("server-clock/", game_id, "/", timer.revision));
  absl::StatusOr<v1::AppendEventsResponse> r = recorder_->Append(
      ServerClock(), game_id, timer.revision, {std::move(event)}, Recorder::AppendMode{});
  auto it = timers_.find(game_id);
  // Whatever happened, this timer is spent: success and a lost race both
  // bring a new commit that recomputes the deadline.
  if (it != timers_.end() && it->second.revision == timer.revision) timers_.erase(it);
  if (!r.ok() && !absl::IsAborted(r.status())) {
    LogError(absl::StrCat("game ", game_id, ": appending the ", timer.deadline.predicted.clause(),
                          " flag"),
             r.status());
  }
}

}  // namespace arbiter::service
