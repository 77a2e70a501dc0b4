// The server's recorder of standings (TournamentEvent standings_recorded,
// proto/DOMAIN.md "Tournaments in the ledger"): after each commit that
// touches a tournament (its own stream, or a game one of its pairings
// names), it appends the standings recorded_standings.h says are due, right
// after that commit.
//
// It follows the log as the timekeeper does (timekeeper.h): it listens to
// the ledger's commit feed from its construction and reads each commit's
// entries from the feed (or, behind its window, from the database: another
// server's commits on a shared ledger too). On start it updates every
// tournament once, so what a stopped server left due is recorded.
//
// The append expects the tournament's revision it read and names every game
// the standings were derived from at the revision read
// (AppendRequest::derived_from): the standings are those of the
// log up to their position, and a second server (or a retry) that read the
// same log finds them recorded and appends nothing. On a conflict it reads
// again.
#ifndef ARBITER_ADJUDICATOR_SERVICE_STANDINGS_RECORDER_H_
#define ARBITER_ADJUDICATOR_SERVICE_STANDINGS_RECORDER_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <thread>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "adjudicator/service/game_folds.h"
#include "adjudicator/service/tournament_store.h"
#include "arbiter/v1/tournament.pb.h"
#include "ledger/commit_feed.h"
#include "ledger/ledger.h"

namespace arbiter::tournament {

class StandingsRecorder {
 public:
  // The actor its events are recorded as.
  static constexpr char kActor[] = "server:standings";

  // Reads tournaments from `ledger` and games from `folds` (which judges
  // `ledger`); records nothing in a tournament `store` says a venue synced
  // (TournamentStore::CheckNotAVenues: the venue's own standings arrive with
  // its sync). None is owned; all must outlive this. Listens to the commit
  // feed from here to its destruction.
  StandingsRecorder(
      ledger::Ledger* ledger, service::GameFolds* folds, TournamentStore* store,
      std::function<absl::Time()> now = [] { return absl::Now(); });
  ~StandingsRecorder();  // Stop()s

  // Starts the thread.
  void Start();
  // Returns once the thread has finished any append in progress.
  void Stop();

  // Appends tournament `id`'s standings_recorded if one is due, reading
  // again on a conflict (a few times, then ABORTED). OK when nothing is due
  // or there is no such tournament; DATA_LOSS when its events no longer
  // fold; the ledger's errors.
  absl::Status Update(const std::string& tournament_id);

 private:
  void Run();
  // Reads the log after read_through_ to its end; updates the tournaments
  // it touched.
  void FollowLog();
  bool ReadBatch(std::set<std::string>* touched);
  void Note(const v1::LedgerEntry& entry, std::set<std::string>* touched);
  // Remembers which games `t` names.
  void Index(const v1::Tournament& t);
  bool Sleep();

  ledger::Ledger* ledger_;
  service::GameFolds* folds_;
  TournamentStore* store_;
  std::function<absl::Time()> now_;
  const std::shared_ptr<ledger::CommitFeed> commits_;
  int listener_ = -1;
  std::thread thread_;

  absl::Mutex mu_;
  bool stop_ ABSL_GUARDED_BY(mu_) = false;
  bool committed_ ABSL_GUARDED_BY(mu_) = true;

  absl::Mutex index_mu_;  // Update may run on any thread
  // The tournaments naming each game.
  absl::flat_hash_map<std::string, std::set<std::string>> tournaments_of_
      ABSL_GUARDED_BY(index_mu_);
  // Touched only by the thread.
  uint64_t read_through_ = 0;
};

}  // namespace arbiter::tournament

#endif  // ARBITER_ADJUDICATOR_SERVICE_STANDINGS_RECORDER_H_
