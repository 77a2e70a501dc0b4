// What writer.cc and writer_append.cc share: the job a caller waits on,
// the state a batch adds on top of the committed one, and the writer's
// prepared statements. Internal to the ledger.
#ifndef ARBITER_LEDGER_WRITER_INTERNAL_H_
#define ARBITER_LEDGER_WRITER_INTERNAL_H_

#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/synchronization/notification.h"
#include "ledger/hash.h"
#include "ledger/writer.h"

namespace arbiter::ledger {

struct Writer::Job {
  bool checkpoint = false;
  bool tail_bound = false;  // the writer's own: the unsigned tail is due
  std::string game_id;
  ExpectedRevision expected = ExpectedRevision::Any();
  std::vector<v1::Event> events;
  // Worked out by the caller's thread before the job is queued, so that
  // the writer thread, which every append waits on, only writes: the
  // canonical bytes of each event and their Merkle leaf hashes.
  std::vector<std::string> canonical;
  std::vector<Hash> leaves;

  absl::Status status;
  std::vector<v1::LedgerEntry> entries;
  v1::Checkpoint made;

  // Set for AppendAsync: the job is on the heap and owned by the writer.
  AppendCallback callback;
  absl::Notification done;

  // Answers the caller. A synchronous caller may destroy the job as soon as
  // it is notified, so nothing touches it afterwards.
  void Complete() {
    if (!callback) return done.Notify();
    AppendCallback cb = std::move(callback);
    absl::StatusOr<std::vector<v1::LedgerEntry>> result =
        status.ok() ? absl::StatusOr<std::vector<v1::LedgerEntry>>(std::move(entries)) : status;
    delete this;
    cb(std::move(result));
  }
};

// What a batch has added so far, on top of the committed state.
struct Writer::Batch {
  uint64_t head = 0;
  CompactRange range;
  std::unordered_map<std::string, uint64_t> revisions;
  std::vector<std::string> ended_games;
  // Each game's fold after the batch's appends so far: handed to the judge
  // as committed once the batch commits, dropped if it does not.
  std::unordered_map<std::string, std::unique_ptr<GameJudge>> folds;
};

struct Writer::Statements {
  Stmt find_key, max_revision, insert_event, insert_ruling, insert_game, insert_checkpoint,
      game_events, event_at, rulings_at, game_pin, savepoint, release, rollback_to;

  static absl::StatusOr<std::unique_ptr<Statements>> Prepare(const Db& db) {
    auto s = std::make_unique<Statements>();
    std::pair<Stmt*, const char*> all[] = {
        {&s->find_key,
         "SELECT position, event FROM events WHERE game_id = ? AND idempotency_key = ?"},
        {&s->max_revision, "SELECT IFNULL(MAX(revision), 0) FROM events WHERE game_id = ?"},
        {&s->insert_event,
         "INSERT INTO events(position, game_id, revision, idempotency_key, event, leaf_hash) "
         "VALUES(?, ?, ?, ?, ?, ?)"},
        {&s->insert_ruling, "INSERT INTO rulings(position, seq, ruling) VALUES(?, ?, ?)"},
        {&s->insert_game, "INSERT INTO games(game_id, first_position, rules_pin) VALUES(?, ?, ?)"},
        {&s->insert_checkpoint, "INSERT INTO checkpoints(tree_size, checkpoint) VALUES(?, ?)"},
        {&s->game_events, "SELECT event FROM events WHERE game_id = ? ORDER BY revision"},
        {&s->event_at, "SELECT game_id, revision, event FROM events WHERE position = ?"},
        {&s->rulings_at, "SELECT ruling FROM rulings WHERE position = ? ORDER BY seq"},
        {&s->game_pin, "SELECT rules_pin FROM games WHERE game_id = ?"},
        {&s->savepoint, "SAVEPOINT append"},
        {&s->release, "RELEASE append"},
        {&s->rollback_to, "ROLLBACK TO append"},
    };
    for (auto& [stmt, sql] : all) {
      absl::StatusOr<Stmt> p = Stmt::Prepare(db, sql);
      if (!p.ok()) return p.status();
      *stmt = *std::move(p);
    }
    return s;
  }
};

// Resets a statement when it goes out of scope, so an early return never
// leaves a read cursor open inside the transaction.
class ResetOnExit {
 public:
  explicit ResetOnExit(Stmt& s) : s_(s) {}
  ~ResetOnExit() { s_.Reset(); }

 private:
  Stmt& s_;
};

}  // namespace arbiter::ledger

#endif  // ARBITER_LEDGER_WRITER_INTERNAL_H_
