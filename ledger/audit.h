// The offline audit behind `arbiter verify`: everything the ledger promises,
// re-checked from the stored bytes alone, trusting neither the triggers nor
// the stored hashes.
//
// For a database: every event re-hashed and parsed; positions gapless and
// unique; each game's revisions contiguous from a gameCreated; idempotency
// keys unique; every checkpoint's signature, its Merkle root recomputed from
// the events, consistency proofs between successive checkpoints, and no
// checkpoint beyond the end of the log; every ruling row attached to an
// event; and, with a judge, every game re-adjudicated under its pinned rules
// with its recorded rulings diffed. For a bundle: the checkpoint's
// signature, each event's inclusion proof, the stream's contiguity, and the
// same re-adjudication. The database's log is walked once, read and
// Merkle-folded on the caller's thread while its games are re-hashed, checked
// and re-adjudicated on threads of their own (AuditOptions::game_threads);
// the report is what one thread walking the log in order finds first.
#ifndef ARBITER_LEDGER_AUDIT_H_
#define ARBITER_LEDGER_AUDIT_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "arbiter/v1/ledger.pb.h"
#include "ledger/judge.h"
#include "ledger/tournament_referee.h"

namespace arbiter::ledger {

class AuditSource;  // audit_source.h: a snapshot of either backend (Store::Audit)

struct AuditOptions {
  // Re-adjudicate only this game (the whole log is still checked).
  std::optional<std::string> game_id;
  // The trusted public key (DER). Empty: the key the ledger or bundle
  // carries, which proves integrity only relative to that key.
  std::string public_key_der;
  // The log's origin, when the key came as a C2SP verifier key (note_key.h:
  // its name): every checkpoint's note must name it. Empty: not checked.
  std::string log_origin;
  // Re-adjudicates the games when set; the report says if it was not.
  Judge* judge = nullptr;
  // With `judge` (and no `game_id`): re-derives the tournaments, each
  // finding reported as a re-adjudication's (tournament_referee.h). Called
  // on the caller's thread, while no game is being checked.
  TournamentReferee* tournaments = nullptr;
  // Called on the caller's thread as events are read and hashed: (done,
  // total); (total, total) once every event is checked.
  std::function<void(uint64_t, uint64_t)> progress;
  // Threads that check the games (parse, streams, re-adjudication) while the
  // caller's thread reads, hashes and Merkle-folds the log, each game on one
  // of them (the judge's folds are used by one thread at a time, and Reopen
  // is called by one at a time). -1: one per core (at most 4); 0: none,
  // all on the caller's thread. The report is the same.
  int game_threads = -1;
};

struct AuditReport {
  bool intact = true;
  uint64_t first_bad_position = 0;  // 0 when the fault is not one event's
  std::string why;                  // empty when intact

  uint64_t events = 0;
  uint64_t games = 0;
  uint64_t rulings = 0;
  uint64_t checkpoints = 0;
  uint64_t games_readjudicated = 0;
  uint64_t tournaments = 0;            // tournament streams checked (stream.h)
  uint64_t tournaments_rederived = 0;  // folded again with a TournamentReferee
  bool readjudicated = false;          // a judge was given
  bool key_trusted = false;            // the key came from the caller
  std::string key_id_hex;
  uint64_t signed_size = 0;  // the latest checkpoint's tree size
  // Events after the latest signed checkpoint: their hashes chain, but no
  // signature covers them yet, so whoever can write the file could have
  // rewritten them (and their leaf hashes) undetected.
  uint64_t unsigned_tail = 0;
  std::string signed_root_hex;
  // A bundle audited with a judge: one of its events gave the game its
  // result.
  bool game_ended = false;
};

// Audits the snapshot `source` reads, in one pass over its rows. A Status
// error only when the database cannot be read at all (the source's
// UNAVAILABLE), or NOT_FOUND when `options.game_id` names no game; every
// finding is in the report.
absl::StatusOr<AuditReport> AuditLog(AuditSource& source, const AuditOptions& options);

// For a process that does little but audit (`arbiter verify`): has glibc
// grow each thread's heap in large steps. The checkers keep each game's fold
// until its last event (AuditSource::LastRevisions), and by default each
// thread's heap grows a page or two at a time, one mprotect call each (12,555
// for a 200,000-event log when every fold was kept). Process-wide: not for a
// server.
void TuneHeapForAudit();

// Audits a bundle with no database.
absl::StatusOr<AuditReport> AuditBundle(const v1::AuditBundle& bundle, const AuditOptions& options);

}  // namespace arbiter::ledger

#endif  // ARBITER_LEDGER_AUDIT_H_
