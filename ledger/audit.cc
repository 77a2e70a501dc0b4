#include "ledger/audit.h"

#include <malloc.h>
#include <pthread.h>

#include <algorithm>
#include <atomic>
#include <deque>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <thread>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "ledger/checkpoint.h"
#include "ledger/hash.h"
#include "ledger/internal/audit_source.h"
#include "ledger/internal/checkpoint_note.h"
#include "ledger/internal/log_rows.h"
#include "ledger/internal/tournament_audit.h"
#include "ledger/merkle.h"
#include "ledger/stream.h"
#include "proto/canonical/canonical_bytes.h"

namespace arbiter::ledger {
namespace {

// Records the first finding; later ones are not reported.
bool Fail(AuditReport& report, uint64_t position, std::string why) {
  if (report.intact) {
    report.intact = false;
    report.first_bad_position = position;
    report.why = std::move(why);
  }
  return false;
}

// Per-game stream bookkeeping while the log is walked in position order.
struct StreamCheck {
  std::unordered_map<std::string, uint64_t> revisions;
  std::unordered_set<std::string> keys;  // game id, NUL, key: keys are per game

  // The structural promises for one event; false after reporting.
  bool Check(AuditReport& report, uint64_t position, const std::string& game_id, uint64_t revision,
             const std::string& key_column, const v1::Event& event) {
    uint64_t& last = revisions[game_id];
    if (revision != last + 1) {
      return Fail(
          report, position,
          absl::StrCat("game '", game_id, "' jumps from revision ", last, " to ", revision));
    }
    last = revision;
    if ((revision == 1) != event.has_game_created()) {
      return Fail(report, position,
                  revision == 1
                      ? absl::StrCat("game '", game_id, "' does not begin with gameCreated")
                      : absl::StrCat("a second gameCreated in game '", game_id, "'"));
    }
    if (event.has_game_created() && event.game_created().game_id() != game_id) {
      return Fail(report, position,
                  absl::StrCat("gameCreated of '", event.game_created().game_id(),
                               "' is filed under game '", game_id, "'"));
    }
    if (key_column != event.idempotency_key()) {
      return Fail(report, position, "the idempotency key column differs from the event's key");
    }
    if (!key_column.empty() &&
        !keys.insert(absl::StrCat(game_id, absl::string_view("\0", 1), key_column)).second) {
      return Fail(report, position,
                  absl::StrCat("idempotency key '", key_column, "' is recorded twice in game '",
                               game_id, "'"));
    }
    return true;
  }
};

// A fold for re-judging `game_id` under its pinned rules; the reason when
// there is none.
absl::StatusOr<std::unique_ptr<GameJudge>> OpenFold(Judge& judge, const std::string& game_id,
                                                    const std::string& pin,
                                                    const v1::Event& created) {
  absl::StatusOr<std::unique_ptr<GameJudge>> opened =
      judge.Reopen(game_id, created.game_created(), pin);
  if (!opened.ok()) {
    return absl::FailedPreconditionError(
        absl::StrCat("game '", game_id, "' cannot be re-adjudicated: ", opened.status().message()));
  }
  if ((*opened)->RulesPin() != pin) {
    return absl::FailedPreconditionError(absl::StrCat("game '", game_id, "' was judged under '",
                                                      pin, "' but the rules now load as '",
                                                      (*opened)->RulesPin(), "'"));
  }
  return opened;
}

// Re-judges the next event of a game on `fold` and compares the rulings with
// the `recorded` ones (their canonical bytes); the difference, if any, as an
// error. Sets `*ended` when the event gives the game its result.
absl::Status Rejudge(GameJudge& fold, const std::string& game_id, uint64_t revision,
                     const v1::Event& event, const std::vector<std::string>& recorded,
                     bool* ended) {
  absl::StatusOr<Verdict> verdict = fold.Apply(event);
  if (!verdict.ok()) {
    return absl::FailedPreconditionError(
        absl::StrCat("re-adjudication refuses this event of game '", game_id,
                     "': ", verdict.status().message()));
  }
  if (verdict->game_over) *ended = true;
  bool same = recorded.size() == verdict->rulings.size();
  for (size_t i = 0; same && i < recorded.size(); ++i) {
    same = recorded[i] == CanonicalBytes(verdict->rulings[i]);
  }
  if (same) return absl::OkStatus();
  return absl::FailedPreconditionError(
      absl::StrCat("game '", game_id, "' revision ", revision, ": ", recorded.size(),
                   " ruling(s) recorded, re-adjudication gives ", verdict->rulings.size(),
                   (recorded.size() == verdict->rulings.size() ? " that differ" : "")));
}

// Re-judges one game's entries and diffs the rulings; false after reporting.
// `ended` says whether any event gave the game its result.
bool Readjudicate(AuditReport& report, Judge& judge, const std::string& game_id,
                  const std::string& pin, const std::vector<v1::LedgerEntry>& entries,
                  bool* ended) {
  std::unique_ptr<GameJudge> fold;
  std::vector<std::string> recorded;
  for (const v1::LedgerEntry& entry : entries) {
    absl::StatusOr<v1::Event> event = ParseCanonical<v1::Event>(entry.event());
    if (!event.ok()) return Fail(report, entry.position(), std::string(event.status().message()));
    if (fold == nullptr) {
      absl::StatusOr<std::unique_ptr<GameJudge>> opened = OpenFold(judge, game_id, pin, *event);
      if (!opened.ok())
        return Fail(report, entry.position(), std::string(opened.status().message()));
      fold = *std::move(opened);
    }
    recorded.clear();
    for (const v1::Ruling& r : entry.rulings()) recorded.push_back(CanonicalBytes(r));
    if (absl::Status s = Rejudge(*fold, game_id, entry.revision(), *event, recorded, ended);
        !s.ok()) {
      return Fail(report, entry.position(), std::string(s.message()));
    }
  }
  ++report.games_readjudicated;
  return true;
}

// Converts a storage error that means damage into a finding.
absl::Status Absorb(AuditReport& report, absl::Status s) {
  if (s.code() == absl::StatusCode::kDataLoss) {
    Fail(report, 0, std::string(s.message()));
    return absl::OkStatus();
  }
  return s;
}

// Where a finding falls in the order of the walk, which reads the log in
// position order and takes each event through these steps in turn. Threads
// make findings out of that order; the one reported is the first in it.
enum Step : uint64_t {
  kRead = 0,        // the row read, its position checked
  kLeaf = 1,        // its bytes against its leaf hash
  kParse = 2,       // canonical parse
  kStream = 3,      // its game's stream
  kRoot = 4,        // a checkpoint ending here
  kRulingRows = 5,  // its ruling rows read
  kJudge = 6,       // re-judged
};
constexpr uint64_t kSteps = 8;
constexpr uint64_t OrderOf(uint64_t position, Step step) { return position * kSteps + step; }
constexpr uint64_t kAfterTheWalk = std::numeric_limits<uint64_t>::max();

// A finding kept aside while the log is walked: the audit reports the
// structure first (hashes, streams, checkpoints), then the ruling rows, then
// re-adjudication, so one pass finds what the separate passes found.
struct Finding {
  uint64_t order = 0;  // OrderOf the step that made it
  uint64_t position = 0;
  std::string why;
};
void Note(std::optional<Finding>& finding, uint64_t order, uint64_t position, std::string why) {
  if (!finding || order < finding->order) finding = Finding{order, position, std::move(why)};
}
void Keep(std::optional<Finding>& finding, std::optional<Finding> other) {
  if (other) Note(finding, other->order, other->position, std::move(other->why));
}

// What stopped the walk: a structural finding, or a storage error (the
// source's), with the counts the report had reached at that step.
struct Stop {
  uint64_t order = 0;
  uint64_t position = 0;
  std::string why;
  absl::Status error;  // not OK: the walk fails with it (DATA_LOSS becomes a finding)
  uint64_t events = 0;
  uint64_t rulings = 0;
};
void Keep(std::optional<Stop>& stop, Stop other) {
  if (!stop || other.order < stop->order) stop = std::move(other);
}

// A game event whose bytes are not those its leaf hash was made of.
constexpr absl::string_view kLeafDiffers = "the event's bytes do not match its recorded leaf hash";

// Exchanges two rows' columns, each string's buffer with the other's:
// std::swap's three moves of every column were 2.7 % of an audit's CPU.
void SwapRows(StoredEvent& a, StoredEvent& b) {
  std::swap(a.position, b.position);
  a.game_id.swap(b.game_id);
  std::swap(a.revision, b.revision);
  a.idempotency_key.swap(b.idempotency_key);
  a.event.swap(b.event);
  a.leaf_hash.swap(b.leaf_hash);
}

// One event as the walk hands it to the checker of its game.
struct WalkedEvent {
  StoredEvent row;
  std::vector<std::string> recorded;  // its ruling rows' bytes, by seq
  uint64_t rulings_before = 0;        // ruling rows taken for earlier positions
};

// Events of the games one checker owns, in position order. Recycled with
// their strings' capacity.
struct Batch {
  static constexpr size_t kEvents = 1024;
  std::vector<WalkedEvent> events = std::vector<WalkedEvent>(kEvents);
  size_t size = 0;
};

// The batches in circulation: a fixed number, so a walk ahead of its
// checkers waits for one to come back rather than holding the log in memory.
class BatchPool {
 public:
  explicit BatchPool(size_t n) {
    for (size_t i = 0; i < n; ++i) free_.push_back(std::make_unique<Batch>());
  }
  std::unique_ptr<Batch> Take() {
    absl::MutexLock lock(&mu_, absl::Condition(this, &BatchPool::HasFree));
    std::unique_ptr<Batch> b = std::move(free_.back());
    free_.pop_back();
    b->size = 0;
    return b;
  }
  void Give(std::unique_ptr<Batch> b) {
    absl::MutexLock lock(&mu_);
    free_.push_back(std::move(b));
  }

 private:
  bool HasFree() const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) { return !free_.empty(); }
  absl::Mutex mu_;
  std::vector<std::unique_ptr<Batch>> free_ ABSL_GUARDED_BY(mu_);
};

// Checks the events of the games it owns, each game's in stream order: each
// parsed and checked canonical, checked against its stream, re-judged on its
// game's fold and its ruling rows compared. Used by one thread at a time, so
// its folds are too; opening a fold (Judge::Reopen) is serialised over all
// checkers by `open_mu`.
class GameChecker {
 public:
  GameChecker(const AuditOptions& options, const std::unordered_map<std::string, std::string>& pins,
              const std::unordered_map<std::string, uint64_t>& last_revisions, absl::Mutex& open_mu,
              std::atomic<bool>& stopped)
      : options_(options),
        pins_(pins),
        last_revisions_(last_revisions),
        open_mu_(open_mu),
        stopped_(stopped) {}

  // The batch's events, until a structural finding stops this checker.
  void Check(Batch& batch) {
    for (size_t i = 0; i < batch.size && !stop_; ++i) CheckEvent(batch.events[i]);
    RenewScratch();
  }

  // What this checker found, once it has checked its last batch.
  std::optional<Stop>& stop() { return stop_; }
  std::optional<Finding>& ruling_rows() { return ruling_rows_; }
  std::optional<Finding>& readjudication() { return readjudication_; }
  const StreamCheck& streams() const { return streams_; }
  // The games whose fold was opened at or before `order` in the walk.
  uint64_t FoldsOpenedBy(uint64_t order) const {
    uint64_t n = 0;
    for (const auto& [id, game] : games_) n += game.judged && game.opened <= order;
    return n;
  }
  // Hands `referee` each game re-judged since the last call, as its fold now
  // stands: the referee keeps each game's latest state only.
  void HandAdvanced(TournamentReferee& referee) {
    for (GameEntry* game : advanced_) {
      game->second.advanced = false;
      referee.GameAdvanced(game->first, *game->second.fold);
      if (game->second.done) game->second.fold.reset();
    }
    advanced_.clear();
  }

 private:
  struct Game {
    std::unique_ptr<GameJudge> fold;  // null: not (or no longer) re-judged
    uint64_t opened = 0;              // the walk's order when it was
    bool judged = false;              // a fold was opened
    bool advanced = false;            // in advanced_
    bool done = false;                // its last revision re-judged: the fold goes
    // Its last revision as the events table's index gives it (0: none),
    // looked up once, when the fold is opened.
    uint64_t last_revision = 0;
  };
  using GameEntry = std::unordered_map<std::string, Game>::value_type;
  void CheckEvent(const WalkedEvent& e);
  void StopAt(const WalkedEvent& e, Step step, uint64_t position, std::string why);
  // The fold `event` (revision 1 of its game) opens, or nullptr after noting why.
  std::unique_ptr<GameJudge> Open(uint64_t position, const std::string& game_id,
                                  const v1::Event& event);
  // After `revision` of the game re-judged: lets go of its fold if that was
  // its last (at once, or once the referee has been handed it).
  void Retire(GameEntry& entry, uint64_t revision);
  // Re-judges one event of its game, or checks its ruling rows alone.
  void JudgeEvent(uint64_t position, const std::string& game_id, uint64_t revision,
                  const v1::Event& event, const std::vector<std::string>& recorded);

  const AuditOptions& options_;
  const std::unordered_map<std::string, std::string>& pins_;
  const std::unordered_map<std::string, uint64_t>& last_revisions_;
  absl::Mutex& open_mu_;
  std::atomic<bool>& stopped_;
  StreamCheck streams_;
  std::unordered_map<std::string, Game> games_;
  // Games re-judged since the last HandAdvanced, kept only for a referee.
  std::vector<GameEntry*> advanced_;
  std::optional<Stop> stop_;
  std::optional<Finding> ruling_rows_, readjudication_;
  // Scratch, for each event's parse, on an arena: a message on the heap
  // frees its oneof's message at each Clear and allocates the next event's
  // anew (a malloc and a free of each of its parts per event). The arena
  // grows by what each parse leaves behind, and starts over after a batch
  // once it holds 64 KiB.
  void RenewScratch() {
    constexpr uint64_t kMostScratch = 64 << 10;  // about a batch's events: their pages stay warm
    if (arena_.SpaceUsed() < kMostScratch) return;
    arena_.Reset();
    event_ = google::protobuf::Arena::CreateMessage<v1::Event>(&arena_);
  }
  google::protobuf::Arena arena_;
  v1::Event* event_ = google::protobuf::Arena::CreateMessage<v1::Event>(&arena_);
  v1::Ruling ruling_;    // scratch, for the canonical check of a ruling row
  AuditReport scratch_;  // StreamCheck's finding
};

void GameChecker::StopAt(const WalkedEvent& e, Step step, uint64_t position, std::string why) {
  const uint64_t at = e.row.position;
  stop_ =
      Stop{OrderOf(at, step), position, std::move(why), absl::OkStatus(), at - 1, e.rulings_before};
  stopped_.store(true, std::memory_order_relaxed);
}

void GameChecker::CheckEvent(const WalkedEvent& e) {
  const StoredEvent& row = e.row;
  const uint64_t position = row.position;
  // The walk put the stored leaf hash into its tree; the bytes are hashed
  // here, off the walk's thread, and a difference stops the audit where the
  // walk's own check would have (kLeaf comes before any root it checked).
  if (AsBytes(LeafHash(row.event)) != row.leaf_hash) {
    return StopAt(e, kLeaf, position, std::string(kLeafDiffers));
  }
  if (absl::Status s = ParseCanonicalInto(row.event, event_); !s.ok()) {
    return StopAt(e, kParse, position, std::string(s.message()));
  }
  const uint64_t revision = row.revision;
  if (!streams_.Check(scratch_, position, row.game_id, revision, row.idempotency_key, *event_)) {
    return StopAt(e, kStream, scratch_.first_bad_position, scratch_.why);
  }
  JudgeEvent(position, row.game_id, revision, *event_, e.recorded);
}

std::unique_ptr<GameJudge> GameChecker::Open(uint64_t position, const std::string& game_id,
                                             const v1::Event& event) {
  const uint64_t order = OrderOf(position, kJudge);
  auto pin = pins_.find(game_id);
  if (pin == pins_.end()) {
    Note(readjudication_, order, 0,
         absl::StrCat("game '", game_id, "' has no pinned rules: no game '", game_id,
                      "' in the ledger"));
    return nullptr;
  }
  absl::MutexLock lock(&open_mu_);
  absl::StatusOr<std::unique_ptr<GameJudge>> opened =
      OpenFold(*options_.judge, game_id, pin->second, event);
  if (!opened.ok()) {
    Note(readjudication_, order, position, std::string(opened.status().message()));
    return nullptr;
  }
  return *std::move(opened);
}

void GameChecker::JudgeEvent(uint64_t position, const std::string& game_id, uint64_t revision,
                             const v1::Event& event, const std::vector<std::string>& recorded) {
  GameJudge* fold = nullptr;
  GameEntry* entry = nullptr;
  if (options_.judge != nullptr && !readjudication_ &&
      (!options_.game_id || *options_.game_id == game_id)) {
    entry = &*games_.try_emplace(game_id).first;
    Game& game = entry->second;
    if (revision == 1) {
      game.fold = Open(position, game_id, event);
      game.opened = OrderOf(position, kJudge);
      game.judged = game.fold != nullptr;
      auto last = last_revisions_.find(game_id);
      game.last_revision = last != last_revisions_.end() ? last->second : 0;
    }
    fold = game.fold.get();
    if (fold == nullptr && game.judged) {
      // Let go after the revision the index gave as its last.
      Note(readjudication_, OrderOf(position, kJudge), position,
           absl::StrCat("game '", game_id, "' revision ", revision,
                        " comes after its last revision as the events table's index gives it (",
                        last_revisions_.at(game_id), "): the index differs from the rows"));
      return;
    }
  }
  bool ended = false;
  if (fold != nullptr) {
    absl::Status s = Rejudge(*fold, game_id, revision, event, recorded, &ended);
    // Rulings equal to the re-judged ones are canonical; others are parsed
    // below, to tell a damaged row from a ruling that differs.
    if (s.ok()) {
      if (options_.tournaments != nullptr && !entry->second.advanced) {
        entry->second.advanced = true;
        advanced_.push_back(entry);
      }
      Retire(*entry, revision);
      return;
    }
    Note(readjudication_, OrderOf(position, kJudge), position, std::string(s.message()));
  }
  // Canonical, as the writer stores them: bytes with unknown fields in them
  // would carry what no re-adjudication compares.
  for (const std::string& bytes : recorded) {
    if (absl::Status s = ParseCanonicalInto(bytes, &ruling_); !s.ok()) {
      Note(ruling_rows_, OrderOf(position, kJudge), position,
           absl::StrCat("a ruling of this event: ", s.message()));
      return;
    }
  }
}

void GameChecker::Retire(GameEntry& entry, uint64_t revision) {
  if (entry.second.last_revision != revision) return;
  // Memory: a 200,000-event audit that kept every fold to the end touched
  // 72 MB more, and its page faults were a tenth of its CPU time.
  Game& game = entry.second;
  game.done = true;
  if (!game.advanced) game.fold.reset();  // else once HandAdvanced has handed it on
}

// One checker, fed batches on a thread of its own, or on the walk's (then
// each batch is checked as it is pushed).
class Lane {
 public:
  Lane(GameChecker& checker, BatchPool& pool, bool threaded) : checker_(checker), pool_(pool) {
    if (!threaded) return;
    thread_ = std::thread([this] { Loop(); });
    pthread_setname_np(thread_.native_handle(), "audit-games");
  }
  ~Lane() { Close(); }

  void Push(std::unique_ptr<Batch> batch) {
    if (!thread_.joinable()) {
      checker_.Check(*batch);
      pool_.Give(std::move(batch));
      return;
    }
    absl::MutexLock lock(&mu_);
    queue_.push_back(std::move(batch));
  }
  // Returns once every batch pushed is checked.
  void Drain() {
    if (!thread_.joinable()) return;
    absl::MutexLock lock(&mu_, absl::Condition(this, &Lane::Idle));
  }
  // After the last Push: returns once every batch is checked.
  void Close() {
    if (!thread_.joinable()) return;
    {
      absl::MutexLock lock(&mu_);
      closed_ = true;
    }
    thread_.join();
  }

 private:
  bool Ready() const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) { return !queue_.empty() || closed_; }
  bool Idle() const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) { return queue_.empty() && !checking_; }
  void Loop() {
    std::unique_ptr<Batch> batch;
    for (;;) {
      {
        // One lock a batch: the last one's end and the next one's taking.
        absl::MutexLock lock(&mu_);
        checking_ = false;  // the checker's state is the walk's to read once Idle
        mu_.Await(absl::Condition(this, &Lane::Ready));
        if (queue_.empty()) return;
        checking_ = true;
        batch = std::move(queue_.front());
        queue_.pop_front();
      }
      checker_.Check(*batch);
      pool_.Give(std::move(batch));
    }
  }

  GameChecker& checker_;
  BatchPool& pool_;
  absl::Mutex mu_;
  std::deque<std::unique_ptr<Batch>> queue_ ABSL_GUARDED_BY(mu_);
  bool closed_ ABSL_GUARDED_BY(mu_) = false;
  bool checking_ ABSL_GUARDED_BY(mu_) = false;  // a batch taken, not yet checked
  std::thread thread_;
};

// The one pass over the log. The walk (the caller's thread) reads each event
// once, folds its stored leaf hash into the Merkle tree (checkpoint roots),
// reads its ruling rows alongside (a second cursor, in the same position
// order) and hands it on, in batches, to the checker of its game: a game's
// events all go to one checker, on a thread of its own (AuditOptions::
// game_threads), which re-hashes each against its stored leaf hash, parses
// and checks it canonical, checks it against its stream and, with a judge,
// feeds it to its game's fold and compares the rulings. The findings are
// then reported as one thread in the walk's order would have made them
// (Step).
class LogWalk {
 public:
  LogWalk(const AuditOptions& options, const std::vector<v1::Checkpoint>& checkpoints,
          std::unordered_map<std::string, std::string> pins, AuditReport& report)
      : options_(options), checkpoints_(checkpoints), pins_(std::move(pins)), report_(report) {}

  // Walks the log; grows `tree` by each event's leaf (one node hash per
  // leaf, amortised, which also gives each checkpoint's root) and fills
  // `games` (game id -> revision count).
  absl::Status Run(AuditSource& source, MerkleTree& tree, std::map<std::string, uint64_t>& games);

  // Reports the kept findings in their order; false after reporting.
  bool ReportRulingRows() { return Report(ruling_rows_); }
  bool ReportReadjudication() { return Report(readjudication_); }

 private:
  bool Report(const std::optional<Finding>& f) { return !f || Fail(report_, f->position, f->why); }
  // How many threads check the games (0: the walk's own).
  size_t GameThreads() const;
  // Reads, hashes and hands on every event, until the end or a stop.
  std::optional<Stop> Walk(MerkleTree& tree, uint64_t total);
  // After a walk to the end: the checks of the whole log, the games counted.
  absl::Status Finish(const MerkleTree& tree, std::map<std::string, uint64_t>& games);
  // The checkpoints ending at the event just appended; a stop if one differs.
  std::optional<Stop> CheckRoots(MerkleTree& tree);
  // The slot of the next event of `game_id`, in its checker's batch.
  WalkedEvent& Slot(const std::string& game_id);
  // Counts the slot in, handing the batch on when it is full.
  void Commit();
  // Steps the rulings cursor.
  absl::Status NextRuling();
  // Reads the ruling rows of `position` into `recorded`.
  absl::Status TakeRulings(uint64_t position, std::vector<std::string>& recorded);
  // The walk's own stop at `order`, with the counts reached.
  Stop StopHere(uint64_t order, uint64_t position, std::string why, absl::Status error) {
    return Stop{order, position, std::move(why), std::move(error), report_.events, report_.rulings};
  }
  // The event row_ against its leaf hash; a stop if they differ.
  std::optional<Stop> CheckLeaf(uint64_t position, const Hash& leaf);
  // A tournament's entry, row_ (tournament_audit.h): checked, kept for its
  // stream and handed to the referee, never judged; a stop if it breaks its
  // stream.
  std::optional<Stop> TakeTournamentEntry(uint64_t position);
  // The tournaments' referee, handed every game the checkers advanced, once
  // they have checked every event handed on: nullptr without one, for one
  // game only, or once re-adjudication has a finding (there is then no log
  // for it to follow).
  TournamentReferee* Referee();
  // Hands on every batch being filled and waits until the checkers have
  // checked them.
  void Settle();

  const AuditOptions& options_;
  const std::vector<v1::Checkpoint>& checkpoints_;
  const std::unordered_map<std::string, std::string> pins_;
  std::unordered_map<std::string, uint64_t> last_revisions_;  // the source's, read in Run
  AuditReport& report_;
  std::optional<Finding> ruling_rows_, readjudication_;
  TournamentEntries tournaments_;

  AuditSource* source_ = nullptr;  // during Run
  StoredEvent row_;
  StoredRuling ruling_row_;
  bool has_ruling_row_ = false;  // ruling_row_ holds the cursor's row
  size_t next_checkpoint_ = 0;
  uint64_t last_good_checkpoint_ = 0;

  // The checkers, their lanes, and the batch each is being filled.
  std::vector<std::unique_ptr<GameChecker>> checkers_;
  std::vector<std::unique_ptr<Lane>> lanes_;
  std::vector<std::unique_ptr<Batch>> filling_;
  size_t slot_lane_ = 0;  // the lane of the last Slot()
  std::unique_ptr<BatchPool> pool_;
  absl::Mutex open_mu_;                          // Judge::Reopen, one call at a time
  std::atomic<bool> stopped_{false};             // a checker found a structural fault
  std::vector<std::string> tournament_rulings_;  // a tournament entry's ruling rows
  // The tournaments' referee while it follows the log (see Referee()).
  TournamentReferee* referee_ = nullptr;
};

size_t LogWalk::GameThreads() const {
  if (options_.game_threads >= 0) return static_cast<size_t>(options_.game_threads);
  // Beyond a few the walk, which one thread must do, is the bound.
  constexpr unsigned kMostThreads = 4;
  const unsigned cores = std::thread::hardware_concurrency();
  return cores < 2 ? 0 : std::min(cores, kMostThreads);
}

absl::Status LogWalk::NextRuling() {
  absl::StatusOr<bool> row = source_->NextRuling(ruling_row_);
  if (!row.ok()) return row.status();
  has_ruling_row_ = *row;
  return absl::OkStatus();
}

absl::Status LogWalk::TakeRulings(uint64_t position, std::vector<std::string>& recorded) {
  const uint64_t order = OrderOf(position, kRulingRows);
  recorded.clear();
  // Rows before this position belong to no event: the earlier positions
  // have taken theirs.
  for (; has_ruling_row_ && static_cast<uint64_t>(ruling_row_.position) < position;) {
    Note(ruling_rows_, order, ruling_row_.position,
         absl::StrCat("a ruling row refers to position ", ruling_row_.position,
                      ", which holds no event"));
    if (absl::Status s = NextRuling(); !s.ok()) return s;
  }
  for (; has_ruling_row_ && static_cast<uint64_t>(ruling_row_.position) == position;) {
    if (ruling_row_.seq != static_cast<int64_t>(recorded.size())) {
      Note(ruling_rows_, order, position,
           "the rulings of this event are not numbered 0, 1, 2, ...");
    }
    recorded.push_back(std::move(ruling_row_.ruling));
    ++report_.rulings;
    if (absl::Status s = NextRuling(); !s.ok()) return s;
  }
  return absl::OkStatus();
}

WalkedEvent& LogWalk::Slot(const std::string& game_id) {
  slot_lane_ = std::hash<std::string>()(game_id) % lanes_.size();
  std::unique_ptr<Batch>& batch = filling_[slot_lane_];
  if (batch == nullptr) batch = pool_->Take();
  return batch->events[batch->size];
}

void LogWalk::Commit() {
  std::unique_ptr<Batch>& batch = filling_[slot_lane_];
  if (++batch->size == Batch::kEvents) lanes_[slot_lane_]->Push(std::move(batch));
}

std::optional<Stop> LogWalk::CheckRoots(MerkleTree& tree) {
  while (next_checkpoint_ < checkpoints_.size() &&
         checkpoints_[next_checkpoint_].tree_size() == tree.size()) {
    const uint64_t order = OrderOf(tree.size(), kRoot);
    absl::StatusOr<Hash> root = tree.Root(tree.size());
    if (!root.ok()) return StopHere(order, 0, "", root.status());
    if (AsBytes(*root) != checkpoints_[next_checkpoint_].root_hash()) {
      return StopHere(order, last_good_checkpoint_ + 1,
                      absl::StrCat("the Merkle root of positions 1..", tree.size(),
                                   " differs from its signed checkpoint: an event after position ",
                                   last_good_checkpoint_, " and at or before ", tree.size(),
                                   " was changed, removed or reordered"),
                      absl::OkStatus());
    }
    last_good_checkpoint_ = tree.size();
    ++next_checkpoint_;
  }
  return std::nullopt;
}

std::optional<Stop> LogWalk::Walk(MerkleTree& tree, uint64_t total) {
  if (absl::Status s = NextRuling(); !s.ok()) return StopHere(0, 0, "", s);
  // A checker's structural finding stops the walk: nothing after it counts.
  while (!stopped_.load(std::memory_order_relaxed)) {
    const uint64_t expected = tree.size() + 1;
    absl::StatusOr<bool> more = source_->NextEvent(row_);
    if (!more.ok()) return StopHere(OrderOf(expected, kRead), 0, "", more.status());
    if (!*more) return std::nullopt;
    const uint64_t position = row_.position;
    if (position != expected) {
      return StopHere(
          OrderOf(expected, kRead), expected,
          position < expected
              ? absl::StrCat("position ", position, " appears twice")
              : absl::StrCat("position ", expected, " is missing (the next is ", position, ")"),
          absl::OkStatus());
    }
    const bool tournament = IsTournamentStream(row_.game_id);
    // A game event's leaf is taken as stored, and checked by its game's
    // checker (GameChecker::CheckEvent); a tournament's, or one that is not
    // a hash, is checked here.
    Hash leaf;
    if (tournament || !HashFromBytes(row_.leaf_hash, &leaf)) {
      leaf = EntryLeafHash(row_.game_id, row_.event);
      if (std::optional<Stop> stop = CheckLeaf(position, leaf)) return stop;
    }
    std::vector<std::string>* recorded = &tournament_rulings_;
    if (tournament) {
      if (std::optional<Stop> stop = TakeTournamentEntry(position)) return stop;
    } else {
      WalkedEvent& e = Slot(row_.game_id);
      SwapRows(e.row, row_);
      e.rulings_before = report_.rulings;
      recorded = &e.recorded;
    }
    tree.Append(leaf);
    ++report_.events;
    std::optional<Stop> stop = CheckRoots(tree);
    if (!stop) {
      if (absl::Status s = TakeRulings(position, *recorded); !s.ok()) {
        stop = StopHere(OrderOf(position, kRulingRows), 0, "", s);
      }
    }
    if (tournament && !recorded->empty()) {
      Note(ruling_rows_, OrderOf(position, kJudge), position,
           "a ruling row refers to a tournament's event");
    }
    // A stop here still has the event's own checks made.
    if (!tournament) Commit();
    if (stop) return stop;
    // With a referee, a fold whose last event is re-judged goes only once
    // the referee has been handed it: hand them on now and then, not only
    // at a tournament's events.
    constexpr uint64_t kHandEvery = 16384;
    if (referee_ != nullptr && tree.size() % kHandEvery == 0) Referee();
    if (options_.progress && tree.size() % 1024 == 0 && tree.size() != total) {
      options_.progress(tree.size(), total);
    }
  }
  return std::nullopt;
}

std::optional<Stop> LogWalk::CheckLeaf(uint64_t position, const Hash& leaf) {
  if (row_.leaf_hash == AsBytes(leaf)) return std::nullopt;
  // A tournament's entry is named: its position alone says nothing of which
  // record a federation rates was changed.
  const std::string& stream = row_.game_id;
  return StopHere(
      OrderOf(position, kLeaf), position,
      absl::StrCat(IsTournamentStream(stream)
                       ? absl::StrCat("tournament '", stream.substr(kTournamentStreamPrefix.size()),
                                      "' revision ", row_.revision, ": ")
                       : "",
                   kLeafDiffers),
      absl::OkStatus());
}

std::optional<Stop> LogWalk::TakeTournamentEntry(uint64_t position) {
  const std::string& stream = row_.game_id;
  const uint64_t revision = row_.revision;
  // Its structural checks stand where a game event's parse does.
  if (std::optional<std::string> why =
          tournaments_.Add(stream, revision, !row_.idempotency_key.empty(), row_.event)) {
    return StopHere(OrderOf(position, kParse), position, *std::move(why), absl::OkStatus());
  }
  if (TournamentReferee* referee = Referee()) {
    const std::string id = stream.substr(kTournamentStreamPrefix.size());
    if (std::optional<std::string> why =
            referee->Apply(id, revision, tournaments_.streams().at(id).back())) {
      Note(readjudication_, OrderOf(position, kJudge), position, *std::move(why));
    }
  }
  return std::nullopt;
}

void LogWalk::Settle() {
  for (size_t i = 0; i < lanes_.size(); ++i) {
    if (filling_[i] != nullptr) lanes_[i]->Push(std::move(filling_[i]));
    lanes_[i]->Drain();
  }
}

TournamentReferee* LogWalk::Referee() {
  if (referee_ == nullptr) return nullptr;
  // The referee follows the log in position order: every game event before
  // this point re-judged, none after it.
  Settle();
  bool found = readjudication_.has_value();
  for (const auto& checker : checkers_) found = found || checker->readjudication().has_value();
  if (found) {
    referee_ = nullptr;
    return nullptr;
  }
  for (const auto& checker : checkers_) checker->HandAdvanced(*referee_);
  return referee_;
}

absl::Status LogWalk::Run(AuditSource& source, MerkleTree& tree,
                          std::map<std::string, uint64_t>& games) {
  absl::StatusOr<uint64_t> total = source.Head();
  if (!total.ok()) return total.status();
  absl::StatusOr<std::unordered_map<std::string, uint64_t>> last = source.LastRevisions();
  if (!last.ok()) return last.status();
  last_revisions_ = *std::move(last);
  source_ = &source;
  if (options_.judge != nullptr && !options_.game_id) referee_ = options_.tournaments;
  const size_t threads = GameThreads();
  const size_t lanes = std::max<size_t>(1, threads);
  // Enough batches for each lane to have some queued while the walk fills
  // the next.
  pool_ = std::make_unique<BatchPool>(6 * lanes);
  filling_.resize(lanes);
  for (size_t i = 0; i < lanes; ++i) {
    checkers_.push_back(
        std::make_unique<GameChecker>(options_, pins_, last_revisions_, open_mu_, stopped_));
    lanes_.push_back(std::make_unique<Lane>(*checkers_.back(), *pool_, threads > 0));
  }
  std::optional<Stop> stop = Walk(tree, *total);
  for (size_t i = 0; i < lanes; ++i) {
    if (filling_[i] != nullptr) lanes_[i]->Push(std::move(filling_[i]));
    lanes_[i]->Close();
  }
  for (auto& checker : checkers_) {
    if (checker->stop()) Keep(stop, *std::move(checker->stop()));
    Keep(ruling_rows_, std::move(checker->ruling_rows()));
    Keep(readjudication_, std::move(checker->readjudication()));
  }
  if (stop) {
    report_.events = stop->events;
    report_.rulings = stop->rulings;
    if (!stop->error.ok()) return stop->error;
    Fail(report_, stop->position, stop->why);
    return absl::OkStatus();
  }
  if (options_.progress && tree.size() > 0 && tree.size() == *total) {
    options_.progress(tree.size(), *total);
  }
  return Finish(tree, games);
}

absl::Status LogWalk::Finish(const MerkleTree& tree, std::map<std::string, uint64_t>& games) {
  for (const auto& checker : checkers_) {
    for (const auto& [game, rev] : checker->streams().revisions) games[game] = rev;
  }
  if (next_checkpoint_ < checkpoints_.size()) {
    Fail(report_, tree.size() + 1,
         absl::StrCat("the log ends at position ", tree.size(), " but a signed checkpoint covers ",
                      checkpoints_[next_checkpoint_].tree_size(),
                      " events: its tail was truncated"));
    return absl::OkStatus();
  }
  if (has_ruling_row_) {
    Note(ruling_rows_, kAfterTheWalk, ruling_row_.position,
         absl::StrCat("a ruling row refers to position ", ruling_row_.position,
                      ", which holds no event"));
  }
  // The games re-judged are those opened before re-adjudication stopped at
  // its first finding (the checkers of other games went on).
  const uint64_t judged_until = readjudication_ ? readjudication_->order : kAfterTheWalk;
  for (const auto& checker : checkers_) {
    report_.games_readjudicated += checker->FoldsOpenedBy(judged_until);
  }
  // Every game in the log has its pinned rules, judged or not.
  for (const auto& [game, rev] : games) {
    if (!pins_.contains(game)) {
      Note(readjudication_, kAfterTheWalk, 0,
           absl::StrCat("game '", game, "' has no pinned rules: no game '", game,
                        "' in the ledger"));
    }
  }
  report_.tournaments = tournaments_.streams().size();
  if (TournamentReferee* referee = Referee()) {
    if (std::optional<std::string> why = referee->Finish()) {
      Note(readjudication_, kAfterTheWalk, 0, *std::move(why));
    } else {
      report_.tournaments_rederived = report_.tournaments;
    }
  }
  return absl::OkStatus();
}

// Every checkpoint's signature under `key`; false after reporting.
bool VerifySignatures(AuditReport& report, const std::vector<v1::Checkpoint>& checkpoints,
                      const std::string& key, const std::string& log_origin) {
  // The key decoded once for every checkpoint (a key that does not decode
  // is refused by the first, as VerifyCheckpoint says).
  absl::StatusOr<PublicKey> decoded = PublicKey::FromDer(key);
  const Hash key_id = Sha256(key);
  for (const v1::Checkpoint& c : checkpoints) {
    if (absl::Status s = decoded.ok() ? VerifyCheckpoint(c, *decoded, key_id, log_origin)
                                      : VerifyCheckpoint(c, key, log_origin);
        !s.ok()) {
      return Fail(report, 0, std::string(s.message()));
    }
  }
  return true;
}

// Every checkpoint's signature, checked on a thread of its own while the log
// is walked (they need no event), or at once when the audit keeps to the
// caller's thread. Its finding still comes before the walk's.
class SignatureCheck {
 public:
  SignatureCheck(const AuditReport& report, const std::vector<v1::Checkpoint>& checkpoints,
                 std::string key, const AuditOptions& options)
      : report_(report) {
    auto check = [this, &checkpoints, key = std::move(key), origin = options.log_origin] {
      VerifySignatures(report_, checkpoints, key, origin);
    };
    if (options.game_threads == 0) {
      check();
    } else {
      thread_ = std::thread(check);
    }
  }
  ~SignatureCheck() {
    if (thread_.joinable()) thread_.join();
  }

  bool threaded() const { return thread_.joinable(); }
  // The report as it stood before the walk, with the signatures' finding;
  // nullopt when every signature holds. Waits for the check.
  std::optional<AuditReport> Finding() {
    if (thread_.joinable()) thread_.join();
    if (report_.intact) return std::nullopt;
    return report_;
  }

 private:
  AuditReport report_;
  std::thread thread_;
};

// Consistency between successive checkpoints, by proof, all from one tree
// (the walk checked every checkpoint's size is within the log); false
// after reporting.
bool CheckConsistency(AuditReport& report, MerkleTree& tree,
                      const std::vector<v1::Checkpoint>& checkpoints) {
  for (size_t i = 1; i < checkpoints.size(); ++i) {
    const v1::Checkpoint& a = checkpoints[i - 1];
    const v1::Checkpoint& b = checkpoints[i];
    absl::StatusOr<std::vector<Hash>> proof = tree.ConsistencyProof(a.tree_size(), b.tree_size());
    Hash ra, rb;
    absl::Status s = proof.status();
    if (s.ok() && (!HashFromBytes(a.root_hash(), &ra) || !HashFromBytes(b.root_hash(), &rb))) {
      s = absl::DataLossError("a checkpoint root is not 32 bytes");
    }
    if (s.ok()) s = VerifyConsistency(a.tree_size(), b.tree_size(), ra, rb, *proof);
    if (!s.ok()) {
      return Fail(report, a.tree_size() + 1,
                  absl::StrCat("checkpoints at sizes ", a.tree_size(), " and ", b.tree_size(),
                               " are not consistent: ", s.message()));
    }
  }
  return true;
}

// One bundled entry's bytes and place in its stream: a game's event (as
// StreamCheck), or a tournament's (tournament_audit.h, and no rulings);
// false after reporting.
bool CheckBundledEvent(AuditReport& report, StreamCheck& streams, TournamentEntries& tournaments,
                       const v1::LedgerEntry& e) {
  if (IsTournamentStream(e.game_id())) {
    if (std::optional<std::string> why =
            tournaments.Add(e.game_id(), e.revision(), false, e.event())) {
      return Fail(report, e.position(), *std::move(why));
    }
    if (e.rulings_size() > 0) return Fail(report, e.position(), "a tournament's event has rulings");
    return true;
  }
  absl::StatusOr<v1::Event> event = ParseCanonical<v1::Event>(e.event());
  if (!event.ok()) return Fail(report, e.position(), std::string(event.status().message()));
  return streams.Check(report, e.position(), e.game_id(), e.revision(), event->idempotency_key(),
                       *event);
}

}  // namespace

absl::StatusOr<AuditReport> AuditLog(AuditSource& source, const AuditOptions& options) {
  AuditReport report;
  report.readjudicated = options.judge != nullptr;

  std::string key = options.public_key_der;
  report.key_trusted = !key.empty();
  if (key.empty()) {
    absl::StatusOr<std::string> recorded = source.RecordedPublicKey();
    if (absl::IsNotFound(recorded.status())) {
      Fail(report, 0, "the ledger records no public key, and none was given");
      return report;
    }
    if (!recorded.ok()) return recorded.status();
    key = *recorded;
  }
  report.key_id_hex = ToHex(Sha256(key));
  absl::StatusOr<std::unordered_map<std::string, std::string>> pins = source.RulesPins();
  if (!pins.ok()) {
    if (absl::Status s = Absorb(report, pins.status()); !s.ok()) return s;
    return report;
  }
  if (options.game_id && !pins->contains(*options.game_id)) return NoGame(*options.game_id);

  absl::StatusOr<std::vector<v1::Checkpoint>> checkpoints = source.Checkpoints();
  if (!checkpoints.ok()) {
    if (absl::Status s = Absorb(report, checkpoints.status()); !s.ok()) return s;
    return report;
  }
  report.checkpoints = checkpoints->size();
  SignatureCheck signatures(report, *checkpoints, key, options);
  if (!signatures.threaded()) {
    if (std::optional<AuditReport> bad = signatures.Finding()) return *bad;
  }
  if (!checkpoints->empty()) {
    report.signed_size = checkpoints->back().tree_size();
    report.signed_root_hex = ToHex(checkpoints->back().root_hash());
  }

  // The leaves' level sized for the log at once: grown by doubling, it was
  // copied a dozen times over (a fifth of the audit's page faults).
  std::vector<Hash> leaves;
  if (absl::StatusOr<uint64_t> head = source.Head(); head.ok()) {
    constexpr uint64_t kMostReserved = uint64_t{1} << 24;  // a damaged head asks for no more
    leaves.reserve(std::min(*head, kMostReserved));
  }
  MerkleTree tree{std::move(leaves)};
  std::map<std::string, uint64_t> games;
  LogWalk walk(options, *checkpoints, *std::move(pins), report);
  absl::Status walked = walk.Run(source, tree, games);
  if (std::optional<AuditReport> bad = signatures.Finding()) return *bad;
  if (!walked.ok()) {
    if (walked = Absorb(report, walked); !walked.ok()) return walked;
  }
  if (!report.intact) return report;
  report.games = games.size();

  const uint64_t log_size = tree.size();
  report.unsigned_tail = log_size - std::min<uint64_t>(report.signed_size, log_size);
  if (!CheckConsistency(report, tree, *checkpoints)) return report;
  if (walk.ReportRulingRows()) walk.ReportReadjudication();
  return report;
}

void TuneHeapForAudit() {
  constexpr int kHeapStep = 32 << 20;  // 16 MiB left 6,963 of the calls
  mallopt(M_TOP_PAD, kHeapStep);
}

absl::StatusOr<AuditReport> AuditBundle(const v1::AuditBundle& bundle,
                                        const AuditOptions& options) {
  AuditReport report;
  report.readjudicated = options.judge != nullptr;
  const std::string& key =
      options.public_key_der.empty() ? bundle.public_key() : options.public_key_der;
  report.key_trusted = !options.public_key_der.empty();
  report.key_id_hex = ToHex(Sha256(key));
  const v1::Checkpoint& cp = bundle.checkpoint();
  report.checkpoints = 1;
  report.signed_size = cp.tree_size();
  report.signed_root_hex = ToHex(cp.root_hash());
  if (absl::Status s = VerifyCheckpoint(cp, key, options.log_origin); !s.ok()) {
    Fail(report, 0, std::string(s.message()));
    return report;
  }
  Hash root;
  HashFromBytes(cp.root_hash(), &root);
  if (bundle.entries().empty()) {
    Fail(report, 0, "the bundle holds no events");
    return report;
  }
  StreamCheck streams;
  TournamentEntries tournaments;
  std::vector<v1::LedgerEntry> entries;
  uint64_t last_position = 0;
  for (const v1::ProvenEntry& p : bundle.entries()) {
    const v1::LedgerEntry& e = p.entry();
    if (e.game_id() != bundle.game_id()) {
      Fail(report, e.position(),
           absl::StrCat("an event of game '", e.game_id(), "' in the bundle of '", bundle.game_id(),
                        "'"));
      return report;
    }
    if (e.position() <= last_position) {
      Fail(report, e.position(), "positions do not increase");
      return report;
    }
    last_position = e.position();
    if (!CheckBundledEvent(report, streams, tournaments, e)) return report;
    std::vector<Hash> path;
    for (const std::string& h : p.inclusion_proof()) {
      if (!HashFromBytes(h, &path.emplace_back())) {
        Fail(report, e.position(), "an inclusion proof hash is not 32 bytes");
        return report;
      }
    }
    absl::Status s =
        VerifyInclusion(e.position() - 1, cp.tree_size(), EntryLeafHash(e), path, root);
    if (e.position() == 0 || !s.ok()) {
      Fail(report, e.position(), absl::StrCat("the event is not in the signed log: ", s.message()));
      return report;
    }
    ++report.events;
    report.rulings += e.rulings_size();
    entries.push_back(e);
  }
  if (IsTournamentStream(bundle.game_id())) {
    report.tournaments = 1;  // no judge, no end: its entries are all there is to check
    return report;
  }
  report.games = 1;
  bool ended = false;
  if (options.judge != nullptr && !Readjudicate(report, *options.judge, bundle.game_id(),
                                                bundle.rules_pin(), entries, &ended)) {
    return report;
  }
  report.game_ended = ended;
  // Inclusion proofs cannot show that no event was left off the end; the
  // signed list of ended games can, for a finished game.
  bool signed_ended = std::find(cp.ended_games().begin(), cp.ended_games().end(),
                                bundle.game_id()) != cp.ended_games().end();
  if (options.judge != nullptr && signed_ended && !ended) {
    Fail(report, last_position,
         absl::StrCat("the checkpoint records game '", bundle.game_id(),
                      "' as ended, but its bundled events never end it: events were left out"));
  }
  return report;
}

}  // namespace arbiter::ledger
