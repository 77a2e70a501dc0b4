// The ledger: an event-sourced, tamper-evident SQLite store that never loses
// an acknowledged event.
//
// Each game is a stream of events with a contiguous revision; all streams
// interleave in one global log with a gapless position, over which an RFC
// 6962 Merkle tree is kept and signed (Ed25519) in checkpoints: at every
// game's end and every `checkpoint_every` events. Appends go through one
// writer thread that commits concurrent appends together (group commit,
// WAL, synchronous=FULL); an append returns only after its COMMIT. Reads run
// on their own connections; live followers read the commit feed.
//
// Data directory layout: ledger.db (+ -wal, -shm), ledger.key (the private
// key, 0600, made on first start), ledger.pub (its public half, PEM),
// ledger.lock (one writing process at a time). The same ledger can live in
// a PostgreSQL database instead, written by several processes at once
// (LedgerOptions::dir; where a ledger lives is decided by OpenStore, store.h).
#ifndef ARBITER_LEDGER_LEDGER_H_
#define ARBITER_LEDGER_LEDGER_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "arbiter/v1/events.pb.h"
#include "arbiter/v1/ledger.pb.h"
#include "arbiter/v1/tournament.pb.h"
#include "ledger/append_callback.h"
#include "ledger/audit.h"
#include "ledger/checkpoint_index.h"
#include "ledger/commit_feed.h"
#include "ledger/entry_bounds.h"
#include "ledger/expected_revision.h"
#include "ledger/hash.h"
#include "ledger/judge.h"
#include "ledger/log_source.h"

namespace arbiter::ledger {

class ReaderPool;  // reader_pool.h

struct LedgerOptions {
  // A data directory (created if absent), or a PostgreSQL database named by
  // a libpq URI, postgresql://USER@HOST:PORT/DB (postgres/store.cc): the ledger
  // of a federation, shared by several servers.
  std::string dir;
  // For a PostgreSQL ledger: the directory of its signing key, ledger.key
  // (made if absent) and ledger.pub. Every server of one database needs the
  // same key; the database refuses any other.
  std::string key_dir;
  // The log's origin, the name its C2SP checkpoint notes give it
  // (log_origin.h): kept in the database once chosen; empty: the one kept,
  // else DefaultLogOrigin. FAILED_PRECONDITION at Open when it differs from
  // the kept one.
  std::string log_origin;
  Judge* judge = nullptr;  // required; not owned; must outlive the ledger
  // The read connections of the store at `dir`, when they were opened
  // before the ledger (OpenStore, then a ReaderPool over it): the ledger
  // reads and writes through that store and shares the pool, so a judge
  // that reads the ledger (the service's read model) is made with the pool
  // before the ledger that needs it. Empty: the ledger opens `dir` itself.
  std::shared_ptr<ReaderPool> readers;
  uint64_t checkpoint_every = 1000;  // events between periodic checkpoints; 0: none
  // The longest an event stays after the last signed checkpoint: a
  // checkpoint (reason TAIL_BOUND) is signed this long after the first
  // event it covers was committed, at the latest; zero: no bound.
  absl::Duration sign_within = absl::ZeroDuration();
  size_t max_batch = 1024;    // appends committed together, at most
  const char* vfs = nullptr;  // SQLite VFS name (tests inject faults)
};

struct InclusionProofResult {
  uint64_t tree_size = 0;
  std::vector<Hash> path;
};

class Ledger {
 public:
  // Opens or creates the ledger in `options.dir`; FAILED_PRECONDITION if
  // another process has the directory open, or the signing key is not the
  // one the ledger was made with; UNAVAILABLE if the directory or the
  // database cannot be opened; INVALID_ARGUMENT for a PostgreSQL ledger
  // without `key_dir`.
  static absl::StatusOr<std::unique_ptr<Ledger>> Open(LedgerOptions options);

  // Finishes the appends already queued, then stops the writer.
  ~Ledger();

  // Appends `events` to `game_id`'s stream, atomically, once durable. Each
  // event is judged; its rulings are committed with it, and the judge is
  // handed the game's new fold (Judge::OnCommit) before this returns.
  // Returns one entry per event, with the rulings the judge decided.
  // Errors (nothing is written):
  //  - INVALID_ARGUMENT: an empty game id or batch, an event with no kind, a
  //    gameCreated anywhere but first (or naming another game), a key used
  //    twice in the batch, or a batch mixing already recorded and new keyed
  //    events;
  //  - NOT_FOUND: the game has no stream and the first event is not
  //    gameCreated;
  //  - ALREADY_EXISTS: the batch begins with gameCreated and the game exists,
  //    or an idempotency key is recorded with other content;
  //  - ABORTED: `expected` does not match (the message names the revision);
  //  - the judge's own error when it refuses an event;
  //  - INVALID_ARGUMENT: an event with the rulings the judge gave it over
  //    kMaxEntryBytes, or the whole batch with its rulings over
  //    kMaxAppendBytes;
  //  - UNAVAILABLE / RESOURCE_EXHAUSTED: the storage failed the commit.
  // If every event carries an idempotency key already recorded with the same
  // game and bytes, the original entries are returned and nothing is written
  // (whatever `expected` says): retries are safe.
  absl::StatusOr<std::vector<v1::LedgerEntry>> Append(const std::string& game_id,
                                                      ExpectedRevision expected,
                                                      std::vector<v1::Event> events);

  // A venue's sync (venue_sync.h): a new game's first events, as Append with
  // ExpectedRevision::Exactly(0), and in the same transaction the
  // venue_games row (venue_proofs.h) saying the game comes from the venue
  // whose public key is `venue_key_der`. So a game is never claimed without
  // its events nor holds a venue's events unclaimed, whoever creates the
  // same game id meanwhile (the loser's append fails and writes nothing).
  // The venue tables must exist (VenueProofs::Open). Errors: as Append
  // (ALREADY_EXISTS or ABORTED when the game holds events, even recorded
  // ones: never answered as a retry); ALREADY_EXISTS when another venue
  // has claimed the game.
  absl::StatusOr<std::vector<v1::LedgerEntry>> AppendFromVenue(const std::string& game_id,
                                                               std::vector<v1::Event> events,
                                                               const std::string& venue_key_der);

  // Appends `events` to the stream of tournament `tournament_id`
  // ("tournaments/{id}", stream.h), atomically, once durable, through the
  // same queue, batch and transaction as games' appends. No judge sees them
  // and no rulings are recorded; whoever may write a tournament is decided
  // by the caller (the service). Returns one entry per event (its game_id
  // is the stream's name). Errors (nothing is written):
  //  - INVALID_ARGUMENT: an invalid id, an empty batch, an event with no
  //    kind, `created` anywhere but first or naming another tournament;
  //  - NOT_FOUND: the tournament has no stream and the first event is not
  //    `created`;
  //  - ALREADY_EXISTS: the batch begins with `created` and the stream exists;
  //  - ABORTED: `expected` does not match (the message names the revision);
  //  - INVALID_ARGUMENT: an event over kMaxEntryBytes, or the batch over
  //    kMaxAppendBytes;
  //  - UNAVAILABLE / RESOURCE_EXHAUSTED: the storage failed the commit.
  // Tournament events carry no idempotency key: a retry is made safe by
  // `expected` (a second attempt finds the stream moved: ABORTED).
  // `derived_from` names the other streams (games) the events were derived
  // from, at the revisions read: ABORTED, naming the first that moved, unless
  // each stands there in the append's transaction, so what is derived is a
  // function of the log up to the events' position.
  absl::StatusOr<std::vector<v1::LedgerEntry>> AppendTournament(
      const std::string& tournament_id, ExpectedRevision expected,
      std::vector<v1::TournamentEvent> events, std::vector<StreamAt> derived_from = {});

  // A venue's sync of a tournament (venue_sync.h): its first events, as
  // AppendTournament with ExpectedRevision::Exactly(0), and in the same
  // transaction the venue's claim on the stream "tournaments/{id}" (a
  // venue_games row, as AppendFromVenue writes a game's). Errors: as
  // AppendTournament; ALREADY_EXISTS when another venue has claimed it.
  absl::StatusOr<std::vector<v1::LedgerEntry>> AppendTournamentFromVenue(
      const std::string& tournament_id, std::vector<v1::TournamentEvent> events,
      const std::string& venue_key_der);

  // Append without blocking: queues the append and returns at once. `done`
  // gets what Append would return, on the thread that ran its batch (the
  // writer thread, or a caller of Append), once the append is durable or
  // refused; it must be quick, and may queue more AppendAsync
  // calls but must not call a blocking method of this ledger (that would
  // wait on the thread it runs on). For servers that should not hold a
  // thread per append in flight.
  void AppendAsync(const std::string& game_id, ExpectedRevision expected,
                   std::vector<v1::Event> events, AppendCallback done);

  // As AppendAsync (queued, never run on the calling thread: a server's
  // request reader never waits out a commit), except that `done` receives
  // the committed entries together with the game's fold as the commit left
  // it (Committed; nullptr for a retry answered with the recorded entries),
  // so a server answers from it without reading the game again.
  void AppendWithFold(const std::string& game_id, ExpectedRevision expected,
                      std::vector<v1::Event> events, CommitCallback done);

  // A dry run of AppendWithFold: the append goes through the same batch,
  // checks and judge as a real one (idempotency, the stream, `expected`,
  // the judge's verdicts, the byte bounds), its rows are written in its
  // savepoint and rolled back, so nothing is stored, no idempotency key is
  // consumed and no fold is advanced. `done` gets what the append would
  // have recorded (AppendPreview), or the error Append would have returned.
  // As AppendAsync's, `done` must be quick; it must not append.
  void PreviewAsync(const std::string& game_id, ExpectedRevision expected,
                    std::vector<v1::Event> events, PreviewCallback done);

  // Signs a checkpoint at the current head (or returns the latest, if the
  // head has not moved since). FAILED_PRECONDITION on an empty log.
  absl::StatusOr<v1::Checkpoint> Checkpoint();

  // Reads of committed data.
  absl::StatusOr<uint64_t> Head();
  absl::StatusOr<std::vector<v1::LedgerEntry>> ReadLog(uint64_t after_position, size_t max);
  // When the server received each event after `after_position` (log_source.h).
  absl::StatusOr<std::vector<Arrival>> Arrivals(uint64_t after_position, size_t max);
  absl::StatusOr<std::vector<v1::LedgerEntry>> ReadGame(const std::string& game_id,
                                                        uint64_t after_revision, size_t max);
  absl::StatusOr<uint64_t> GameRevision(const std::string& game_id);
  // The entry idempotency key `key` names in `game_id`'s stream; nullopt if
  // none (a writer that stamps its own times asks before a retry).
  absl::StatusOr<std::optional<v1::LedgerEntry>> FindByKey(const std::string& game_id,
                                                           const std::string& key);
  // The events of tournament `tournament_id`, in revision order: NOT_FOUND
  // when it has no stream, INVALID_ARGUMENT for an invalid id, DATA_LOSS
  // when a stored event does not parse.
  absl::StatusOr<std::vector<v1::TournamentEvent>> ReadTournament(const std::string& tournament_id);
  // The ids of every tournament in the log, in byte order.
  absl::StatusOr<std::vector<std::string>> ListTournaments();
  // Up to `max` games created after global position `after`, oldest first.
  absl::StatusOr<std::vector<GameListing>> ListGames(uint64_t after, size_t max);
  // The rules pin recorded at the game's creation; NOT_FOUND if no game.
  absl::StatusOr<std::string> RulesPin(const std::string& game_id);
  absl::StatusOr<std::vector<v1::Checkpoint>> Checkpoints();
  // The checkpoints indexed (checkpoint_index.h): the latest, the one
  // covering a position, without reading them all.
  CheckpointIndex& checkpoint_index();

  // The audit of everything committed (audit.h), on a snapshot of its own.
  absl::StatusOr<AuditReport> Audit(const AuditOptions& options);

  // The self-contained audit bundle of `game_id` (bundle.h), against the
  // earliest checkpoint covering its last event; if none does yet, one is
  // signed at the head first. NOT_FOUND if no game; DATA_LOSS if the log
  // does not match its checkpoint.
  absl::StatusOr<v1::AuditBundle> ExportBundle(const std::string& game_id);

  // The audit path of `position` in the tree of `tree_size` (a checkpoint's).
  absl::StatusOr<InclusionProofResult> ProveInclusion(uint64_t position, uint64_t tree_size);
  // The proof that the tree of `old_size` is a prefix of that of `new_size`.
  absl::StatusOr<std::vector<Hash>> ProveConsistency(uint64_t old_size, uint64_t new_size);
  // The roots of the perfect subtrees of 2^height events numbered first ..
  // first + count - 1 (a tlog-tiles tile, tile_path.h); OUT_OF_RANGE unless
  // the log holds all of them.
  absl::StatusOr<std::vector<Hash>> PerfectSubtrees(int height, uint64_t first, uint64_t count);

  // The feed of this process's commits (commit_feed.h), for live followers
  // that read history with ReadLog / ReadGame and then join it. Shared: a
  // follower that holds it may outlive the ledger (a closed ledger publishes
  // nothing more).
  std::shared_ptr<CommitFeed> commit_feed();

  // True when other processes may append to this ledger meanwhile (a
  // PostgreSQL ledger): a cache of what it holds must check GameRevision.
  bool shared() const;

  // The signing key's public half, DER (SubjectPublicKeyInfo) and PEM.
  const std::string& public_key_der() const;
  std::string PublicKeyPem() const;
  // The log's origin and its C2SP verifier key, "origin+keyid+base64"
  // (note_key.h; what ledger.vkey holds).
  const std::string& log_origin() const;
  std::string VerifierKey() const;
  // `checkpoint`'s C2SP note (checkpoint_note.h: signed now for one signed
  // before notes). DATA_LOSS for a checkpoint with no 32-byte root.
  absl::StatusOr<std::string> CheckpointNote(const v1::Checkpoint& checkpoint) const;

 private:
  class Impl;
  explicit Ledger(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace arbiter::ledger

#endif  // ARBITER_LEDGER_LEDGER_H_
