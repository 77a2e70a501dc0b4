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
//
// `Ledger` keeps its own methods few (tests/layering/check_ledger_api: at
// most 20, one asynchronous append): the reads of committed data are the
// log's (log(), a LogSource), the proofs the tree's (proofs()), the key and
// origin the identity's (identity()).
#ifndef ARBITER_LEDGER_LEDGER_H_
#define ARBITER_LEDGER_LEDGER_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "arbiter/v1/events.pb.h"
#include "arbiter/v1/ledger.pb.h"
#include "arbiter/v1/tournament.pb.h"
#include "ledger/append_request.h"
#include "ledger/audit.h"
#include "ledger/checkpoint_index.h"
#include "ledger/commit_feed.h"
#include "ledger/entry_bounds.h"
#include "ledger/expected_revision.h"
#include "ledger/hash.h"
#include "ledger/judge.h"
#include "ledger/log_source.h"
#include "ledger/merkle.h"

namespace arbiter::ledger {

class ReaderPool;  // reader_pool.h
class Signer;      // signer.h

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
  // (internal/log_origin.h): kept in the database once chosen; empty: the
  // one kept, else DefaultLogOrigin. FAILED_PRECONDITION at Open when it
  // differs from the kept one.
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
  // PostgreSQL, for tests: called on the thread that follows the head each
  // time its read of the head is sent, before the answer is read, with that
  // connection's socket (a test lands a commit between the read's snapshot
  // and its answer).
  std::function<void(int socket)> pg_head_read_sent;
};

struct InclusionProofResult {
  uint64_t tree_size = 0;
  std::vector<Hash> path;
};

// The proofs over the log's Merkle tree, answered from a tree kept in
// memory that only grows, by the leaves it has not read yet: the log is
// append-only, so a tree over its first n leaves answers every proof within
// n from then on (an auditor fetching a game's 250 proofs does not read the
// log 250 times). It holds every perfect subtree: about 64 bytes per event.
class LogProofs {
 public:
  explicit LogProofs(LogSource& log) : log_(log) {}
  LogProofs(const LogProofs&) = delete;
  LogProofs& operator=(const LogProofs&) = delete;

  // The audit path of `position` in the tree of `tree_size` (a
  // checkpoint's); OUT_OF_RANGE unless 1 <= position <= tree_size <= the
  // log's size; the log's read errors.
  absl::StatusOr<InclusionProofResult> ProveInclusion(uint64_t position, uint64_t tree_size);
  // The proof that the tree of `old_size` is a prefix of that of
  // `new_size`; OUT_OF_RANGE when old_size > new_size or new_size exceeds
  // the log; the log's read errors.
  absl::StatusOr<std::vector<Hash>> ProveConsistency(uint64_t old_size, uint64_t new_size);
  // The roots of the perfect subtrees of 2^height events numbered first ..
  // first + count - 1 (a tlog-tiles tile, tile_path.h); OUT_OF_RANGE unless
  // the log holds all of them; the log's read errors.
  absl::StatusOr<std::vector<Hash>> PerfectSubtrees(int height, uint64_t first, uint64_t count);

 private:
  // Runs `fn` on the tree once it holds the first `tree_size` leaves.
  template <typename Fn>
  auto WithTree(uint64_t tree_size, Fn fn) -> decltype(fn(std::declval<const MerkleTree&>()));

  LogSource& log_;
  absl::Mutex mu_;
  MerkleTree tree_ ABSL_GUARDED_BY(mu_);
};

// Who the log is: its signing key's public half and its origin, the names
// an auditor checks its checkpoints under. Errors: none but CheckpointNote's.
class LogIdentity {
 public:
  explicit LogIdentity(const Signer& signer) : signer_(signer) {}

  // The signing key's public half, DER (SubjectPublicKeyInfo) and PEM.
  const std::string& public_key_der() const;
  std::string PublicKeyPem() const;
  // The log's origin and its C2SP verifier key, "origin+keyid+base64"
  // (note_key.h; what ledger.vkey holds).
  const std::string& origin() const;
  std::string VerifierKey() const;
  // `checkpoint`'s C2SP note (internal/checkpoint_note.h: signed now for
  // one signed before notes). DATA_LOSS for a checkpoint with no 32-byte
  // root.
  absl::StatusOr<std::string> CheckpointNote(const v1::Checkpoint& checkpoint) const;

 private:
  const Signer& signer_;
};

class Ledger {
 public:
  // Opens or creates the ledger in `options.dir`; FAILED_PRECONDITION if
  // another process has the directory open, or the signing key is not the
  // one the ledger was made with; UNAVAILABLE if the directory or the
  // database cannot be opened; INVALID_ARGUMENT for a PostgreSQL ledger
  // without `key_dir`, or without a judge or a directory.
  static absl::StatusOr<std::unique_ptr<Ledger>> Open(LedgerOptions options);

  // Finishes the appends already queued, then stops the writer.
  ~Ledger();

  // Queues `request` and returns at once; `done` gets the entries once they
  // are durable (with the game's fold as the commit left it), or why
  // nothing was written, on the thread that ran the append's batch (the
  // writer thread, or a caller of AppendAndWait); a request refused before
  // it is queued is answered on the calling thread before Append returns.
  // `done` must be quick; it
  // may queue more appends but must not wait on this ledger (that would
  // wait on the thread it runs on). So a server holds no thread per append
  // in flight, and its request readers never wait out a commit.
  //
  // A game's events are each judged, their rulings committed with them, and
  // the judge is handed the game's new fold (Judge::OnCommit) before `done`
  // runs. A tournament's are judged by nobody and carry no rulings; who may
  // write a tournament is the caller's to decide. Errors (nothing is
  // written):
  //  - INVALID_ARGUMENT: an empty id or batch, an invalid tournament id, an
  //    event with no kind, a gameCreated (a tournament's `created`)
  //    anywhere but first or naming another stream, a key used twice in the
  //    batch, a batch mixing already recorded and new keyed events, events
  //    of the other kind of stream, a tournament's preview, or a venue's
  //    append whose `expected` is not Exactly(0);
  //  - NOT_FOUND: the stream does not exist and the first event does not
  //    create it;
  //  - ALREADY_EXISTS: the batch begins with the stream's creation and the
  //    stream exists; an idempotency key is recorded with other content; a
  //    venue's append to a stream another venue has claimed;
  //  - ABORTED: `expected` does not match (the message names the revision),
  //    or a stream in `derived_from` has moved (the message names it); a
  //    venue's append to a stream that holds events (never answered as a
  //    retry);
  //  - the judge's own error when it refuses an event (GameJudge::ApplyNew,
  //    or Apply for a request `synced`);
  //  - INVALID_ARGUMENT: an event with the rulings the judge gave it over
  //    kMaxEntryBytes, or the whole batch with its rulings over
  //    kMaxAppendBytes;
  //  - UNAVAILABLE: the ledger is closing; UNAVAILABLE / RESOURCE_EXHAUSTED:
  //    the storage failed the commit.
  // If every event of a game's batch carries an idempotency key already
  // recorded with the same game and bytes, the original entries are
  // returned and nothing is written (whatever `expected` says): retries are
  // safe. Tournament events carry no key: `expected` makes a retry safe.
  void Append(AppendRequest request, OnAppended done);

  // Append, waited for: the entries `done` would get, or its error. Through
  // the same queue; a SQLite ledger that finds no batch running, while the
  // last batch answered a single append, runs the batch on the caller's
  // thread (the appends queued meanwhile join it).
  absl::StatusOr<std::vector<v1::LedgerEntry>> AppendAndWait(AppendRequest request);

  // Signs a checkpoint at the current head (or returns the latest, if the
  // head has not moved since). FAILED_PRECONDITION on an empty log.
  absl::StatusOr<v1::Checkpoint> Checkpoint();

  // Reads of committed data, each on a pooled read connection (any thread
  // may call them; their errors are log_source.h's).
  LogSource& log();
  // The events of tournament `tournament_id`, in revision order: NOT_FOUND
  // when it has no stream, INVALID_ARGUMENT for an invalid id, DATA_LOSS
  // when a stored event does not parse.
  absl::StatusOr<std::vector<v1::TournamentEvent>> ReadTournament(const std::string& tournament_id);
  // The checkpoints indexed (checkpoint_index.h): the latest, the one
  // covering a position, without reading them all.
  CheckpointIndex& checkpoint_index();
  // Inclusion and consistency proofs, tlog-tiles subtrees.
  LogProofs& proofs();

  // The audit of everything committed (audit.h), on a snapshot of its own.
  absl::StatusOr<AuditReport> Audit(const AuditOptions& options);

  // The self-contained audit bundle of `game_id` (bundle.h), against the
  // earliest checkpoint covering its last event; if none does yet, one is
  // signed at the head first. NOT_FOUND if no game; DATA_LOSS if the log
  // does not match its checkpoint.
  absl::StatusOr<v1::AuditBundle> ExportBundle(const std::string& game_id);

  // The feed of this process's commits (commit_feed.h), for live followers
  // that read history with log() and then join it. Shared: a follower that
  // holds it may outlive the ledger (a closed ledger publishes nothing
  // more).
  std::shared_ptr<CommitFeed> commit_feed();

  // True when other processes may append to this ledger meanwhile (a
  // PostgreSQL ledger): a cache of what it holds must check GameRevision.
  bool shared() const;

  // The signing key and the log's origin.
  const LogIdentity& identity() const;

 private:
  class Impl;
  explicit Ledger(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace arbiter::ledger

#endif  // ARBITER_LEDGER_LEDGER_H_
