#include "adjudicator/service/timekeeper.h"

#include <cstdio>
#include <optional>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "ledger/stream.h"
#include "ledger/thread_name.h"

namespace arbiter::service {
namespace {

// Entries read at a time while following the log.
constexpr size_t kBatch = 1024;

// The server's log is its stderr.
void LogDeadlineError(const std::string& what, const absl::Status& s) {
  std::fprintf(stderr, "arbiter serve: timekeeper: %s: %s\n", what.c_str(), s.ToString().c_str());
}

}  // namespace

Timekeeper::Timekeeper(ledger::Ledger* ledger, GameFolds* folds, Recorder* recorder,
                       std::function<absl::Time()> now)
    : ledger_(ledger),
      folds_(folds),
      recorder_(recorder),
      now_(std::move(now)),
      commits_(ledger->commit_feed()) {
  // On the committing thread: only flag (the thread reads the entries).
  listener_ = commits_->AddListener([this](uint64_t) {
    absl::MutexLock lock(&mu_);
    committed_ = true;
  });
}

Timekeeper::~Timekeeper() {
  Stop();
  commits_->RemoveListener(listener_);
}

Caller Timekeeper::ServerClock() {
  Caller clock;
  clock.key = "server:clock";
  clock.actor = "server:clock";
  return clock;
}

void Timekeeper::Start() {
  thread_ = std::thread([this] {
    NameThisThread("timekeeper");
    Run();
  });
}

void Timekeeper::Stop() {
  {
    absl::MutexLock lock(&mu_);
    stop_ = true;
  }
  if (thread_.joinable()) thread_.join();
}

void Timekeeper::Run() {
  do {
    FollowLog();
    FireDue();
  } while (Sleep());
}

bool Timekeeper::Sleep() {
  absl::MutexLock lock(&mu_);
  auto woken = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) { return stop_ || committed_; };
  if (queue_.empty()) {
    mu_.Await(absl::Condition(&woken));  // no deadline: only a commit matters
  } else {
    mu_.AwaitWithTimeout(absl::Condition(&woken), queue_.begin()->first - now_());
  }
  if (stop_) return false;
  committed_ = false;  // FollowLog reads whatever it flagged
  return true;
}

void Timekeeper::FollowLog() {
  absl::flat_hash_set<std::string> advanced;
  while (ReadBatch(&advanced)) {
  }
  for (const std::string& game : advanced) {
    absl::StatusOr<GameView> view = folds_->Get(game);
    if (!view.ok()) {
      LogDeadlineError(absl::StrCat("game ", game), view.status());
      continue;
    }
    Recompute(*view);
  }
}

bool Timekeeper::ReadBatch(absl::flat_hash_set<std::string>* advanced) {
  absl::StatusOr<size_t> read =
      ledger::ReadPublished(*commits_, ledger_->log(), read_through_, kBatch,
                            [&](const v1::LedgerEntry& entry) { Note(entry, advanced); });
  if (!read.ok()) {
    // Read again at the next commit.
    LogDeadlineError("cannot read the log", read.status());
    return false;
  }
  return *read > 0;
}

void Timekeeper::Note(const v1::LedgerEntry& entry, absl::flat_hash_set<std::string>* advanced) {
  read_through_ = entry.position();
  if (entry.revision() == 1 && !ledger::IsTournamentStream(entry.game_id())) {
    v1::Event event;
    if (event.ParseFromString(entry.event()) && event.game_created().live()) {
      live_.insert(entry.game_id());
    }
  }
  if (live_.contains(entry.game_id())) advanced->insert(entry.game_id());
}

void Timekeeper::Recompute(const GameView& game) {
  auto it = timers_.find(game.game_id);
  // A fold read for an earlier batch may be older than a timer's.
  if (it != timers_.end() && it->second.revision > game.revision) return;
  Forget(game.game_id);
  if (std::optional<Deadline> d = NextDeadline(game.game()); d.has_value()) {
    queue_.emplace(d->fire_at, game.game_id);
    timers_[game.game_id] = Timer{game.revision, *std::move(d)};
  }
}

void Timekeeper::Forget(const std::string& game_id) {
  auto it = timers_.find(game_id);
  if (it == timers_.end()) return;
  queue_.erase({it->second.deadline.fire_at, game_id});
  timers_.erase(it);
}

void Timekeeper::FireDue() {
  const absl::Time now = now_();
  std::vector<std::pair<std::string, Timer>> due;
  for (auto it = queue_.begin(); it != queue_.end() && it->first <= now; ++it) {
    due.emplace_back(it->second, timers_.at(it->second));
  }
  for (const auto& [game, timer] : due) Fire(game, timer);
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
  if (it != timers_.end() && it->second.revision == timer.revision) Forget(game_id);
  if (!r.ok() && !absl::IsAborted(r.status())) {
    LogDeadlineError(absl::StrCat("game ", game_id, ": appending the ",
                                  timer.deadline.predicted.clause(), " flag"),
                     r.status());
  }
}

}  // namespace arbiter::service
