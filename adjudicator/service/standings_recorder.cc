#include "adjudicator/service/standings_recorder.h"

#include <cstdio>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "adjudicator/service/tournament_at.h"
#include "adjudicator/tournament/fold.h"
#include "adjudicator/tournament/recorded_standings.h"
#include "ledger/stream.h"
#include "ledger/thread_name.h"

namespace arbiter::tournament {
namespace {

constexpr size_t kBatch = 1024;  // entries read at a time while following
constexpr int kAttempts = 5;     // reads of a tournament that moved meanwhile

void LogError(const std::string& what, const absl::Status& s) {
  std::fprintf(stderr, "arbiter serve: standings: %s: %s\n", what.c_str(), s.ToString().c_str());
}

// Every game `t`'s pairings name (as their game or a replayed one).
std::vector<std::string> GamesOf(const v1::Tournament& t) {
  std::vector<std::string> ids;
  for (const v1::TournamentRound& r : t.rounds()) {
    for (const v1::Pairing& p : r.pairings()) {
      if (!p.game_id().empty()) ids.push_back(p.game_id());
      ids.insert(ids.end(), p.replayed_game_ids().begin(), p.replayed_game_ids().end());
    }
  }
  return ids;
}

// The facts of `t`'s games as the read model holds them, and the revision
// each was read at (0: not in the ledger).
absl::Status ReadGames(service::GameFolds& folds, const v1::Tournament& t, GameFactsMap* games,
                       std::vector<ledger::StreamAt>* from) {
  for (const std::string& id : GamesOf(t)) {
    absl::StatusOr<service::GameView> view = folds.Get(id);
    if (view.ok()) {
      (*games)[id] = GameFactsOf(view->game());
      from->push_back({id, view->revision});
    } else if (absl::IsNotFound(view.status())) {
      from->push_back({id, 0});
    } else {
      return view.status();
    }
  }
  return absl::OkStatus();
}

}  // namespace

StandingsRecorder::StandingsRecorder(ledger::Ledger* ledger, service::GameFolds* folds,
                                     TournamentStore* store, std::function<absl::Time()> now)
    : ledger_(ledger),
      folds_(folds),
      store_(store),
      now_(std::move(now)),
      commits_(ledger->commit_feed()) {
  listener_ = commits_->AddListener([this](uint64_t) {
    absl::MutexLock lock(&mu_);
    committed_ = true;
  });
}

StandingsRecorder::~StandingsRecorder() {
  Stop();
  commits_->RemoveListener(listener_);
}

void StandingsRecorder::Start() {
  thread_ = std::thread([this] {
    NameThisThread("standings");
    Run();
  });
}

void StandingsRecorder::Stop() {
  {
    absl::MutexLock lock(&mu_);
    stop_ = true;
  }
  if (thread_.joinable()) thread_.join();
}

absl::Status StandingsRecorder::Update(const std::string& tournament_id) {
  if (absl::Status s = store_->CheckNotAVenues(tournament_id); !s.ok()) {
    return absl::IsFailedPrecondition(s) ? absl::OkStatus() : s;  // the venue's to record
  }
  absl::Status last;
  for (int attempt = 0; attempt < kAttempts; ++attempt) {
    absl::StatusOr<std::vector<v1::TournamentEvent>> events =
        ledger_->ReadTournament(tournament_id);
    if (absl::IsNotFound(events.status())) return absl::OkStatus();
    if (!events.ok()) return events.status();
    absl::StatusOr<v1::Tournament> t = Fold(*events);
    if (!t.ok()) return absl::DataLossError(t.status().message());
    Index(*t);
    GameFactsMap games;
    std::vector<ledger::StreamAt> from;
    if (absl::Status s = ReadGames(*folds_, *t, &games, &from); !s.ok()) return s;
    std::optional<v1::StandingsRecorded> due = StandingsDue(*events, *t, games);
    if (!due) return absl::OkStatus();
    v1::TournamentEvent event;
    const int64_t nanos = absl::ToUnixNanos(now_());
    event.mutable_at()->set_seconds(nanos / 1000000000);
    event.mutable_at()->set_nanos(static_cast<int32_t>(nanos % 1000000000));
    event.set_actor(kActor);
    *event.mutable_standings_recorded() = *std::move(due);
    last = ledger_
               ->AppendAndWait(ledger::AppendRequest::Tournament(
                   tournament_id, ledger::ExpectedRevision::Exactly(events->size()),
                   {std::move(event)}, std::move(from)))
               .status();
    if (!absl::IsAborted(last)) return last;
  }
  return last;
}

void StandingsRecorder::Index(const v1::Tournament& t) {
  absl::MutexLock lock(&index_mu_);
  for (const std::string& game : GamesOf(t)) tournaments_of_[game].insert(t.tournament_id());
}

void StandingsRecorder::Run() {
  // The feed's head, not the database's: a commit the database holds but
  // the feed has yet to publish may not have handed its folds on, so an
  // update now could read a game before it; its publish brings it here.
  const uint64_t head = commits_->head();
  absl::StatusOr<std::vector<std::string>> ids = ledger_->log().ListTournaments();
  if (!ids.ok()) {
    LogError("cannot read the log", ids.status());
  } else {
    read_through_ = head;  // what is before, each tournament's update covers
    for (const std::string& id : *ids) {
      if (absl::Status s = Update(id); !s.ok()) LogError(absl::StrCat("tournament ", id), s);
    }
  }
  do {
    FollowLog();
  } while (Sleep());
}

bool StandingsRecorder::Sleep() {
  absl::MutexLock lock(&mu_);
  auto woken = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) { return stop_ || committed_; };
  mu_.Await(absl::Condition(&woken));
  if (stop_) return false;
  committed_ = false;  // FollowLog reads whatever it flagged
  return true;
}

void StandingsRecorder::FollowLog() {
  std::set<std::string> touched;
  while (ReadBatch(&touched)) {
  }
  for (const std::string& id : touched) {
    if (absl::Status s = Update(id); !s.ok()) LogError(absl::StrCat("tournament ", id), s);
  }
}

bool StandingsRecorder::ReadBatch(std::set<std::string>* touched) {
  absl::StatusOr<size_t> read =
      ledger::ReadPublished(*commits_, ledger_->log(), read_through_, kBatch,
                            [&](const v1::LedgerEntry& entry) { Note(entry, touched); });
  if (!read.ok()) {
    LogError("cannot read the log", read.status());  // read again at the next commit
    return false;
  }
  return *read > 0;
}

void StandingsRecorder::Note(const v1::LedgerEntry& entry, std::set<std::string>* touched) {
  read_through_ = entry.position();
  if (ledger::IsTournamentStream(entry.game_id())) {
    touched->insert(entry.game_id().substr(ledger::kTournamentStreamPrefix.size()));
    return;
  }
  absl::MutexLock lock(&index_mu_);
  if (auto it = tournaments_of_.find(entry.game_id()); it != tournaments_of_.end()) {
    touched->insert(it->second.begin(), it->second.end());
  }
}

}  // namespace arbiter::tournament
