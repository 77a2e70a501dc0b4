#include "ledger/audit.h"

#include <algorithm>
#include <limits>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "ledger/checkpoint.h"
#include "ledger/hash.h"
#include "ledger/merkle.h"
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

// Re-judges one game's entries and diffs the rulings; false after reporting.
// `ended` says whether any event gave the game its result.
bool Readjudicate(AuditReport& report, Judge& judge, const std::string& game_id,
                  const std::string& pin, const std::vector<v1::LedgerEntry>& entries,
                  bool* ended = nullptr) {
  std::unique_ptr<GameJudge> fold;
  for (const v1::LedgerEntry& entry : entries) {
    absl::StatusOr<v1::Event> event = ParseCanonical<v1::Event>(entry.event());
    if (!event.ok()) return Fail(report, entry.position(), std::string(event.status().message()));
    if (fold == nullptr) {
      absl::StatusOr<std::unique_ptr<GameJudge>> opened =
          judge.Reopen(game_id, event->game_created(), pin);
      if (!opened.ok()) {
        return Fail(report, entry.position(),
                    absl::StrCat("game '", game_id,
                                 "' cannot be re-adjudicated: ", opened.status().message()));
      }
      fold = *std::move(opened);
      if (fold->RulesPin() != pin) {
        return Fail(report, entry.position(),
                    absl::StrCat("game '", game_id, "' was judged under '", pin,
                                 "' but the rules now load as '", fold->RulesPin(), "'"));
      }
    }
    absl::StatusOr<Verdict> verdict = fold->Apply(*event);
    if (verdict.ok() && verdict->game_over && ended != nullptr) *ended = true;
    if (!verdict.ok()) {
      return Fail(report, entry.position(),
                  absl::StrCat("re-adjudication refuses this event of game '", game_id,
                               "': ", verdict.status().message()));
    }
    bool same = static_cast<size_t>(entry.rulings_size()) == verdict->rulings.size();
    for (size_t i = 0; same && i < verdict->rulings.size(); ++i) {
      same = CanonicalBytes(entry.rulings(i)) == CanonicalBytes(verdict->rulings[i]);
    }
    if (!same) {
      return Fail(
          report, entry.position(),
          absl::StrCat(
              "game '", game_id, "' revision ", entry.revision(), ": ", entry.rulings_size(),
              " ruling(s) recorded, re-adjudication gives ", verdict->rulings.size(),
              (entry.rulings_size() == static_cast<int>(verdict->rulings.size()) ? " that differ"
                                                                                 : "")));
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

// Walks the log: hashes, contiguity, checkpoint roots. Fills `leaves` and
// `games` (game id -> revision count).
absl::Status WalkLog(LogReader& reader, const AuditOptions& options,
                     const std::vector<v1::Checkpoint>& checkpoints, std::vector<Hash>& leaves,
                     std::map<std::string, uint64_t>& games, AuditReport& report) {
  absl::StatusOr<uint64_t> total = reader.Head();
  if (!total.ok()) return total.status();
  absl::StatusOr<Stmt> q = Stmt::Prepare(
      reader.db(),
      "SELECT position, game_id, revision, idempotency_key, event, leaf_hash FROM events "
      "ORDER BY position");
  if (!q.ok()) return q.status();
  StreamCheck streams;
  CompactRange range;
  size_t next_checkpoint = 0;
  uint64_t last_good_checkpoint = 0;
  for (;;) {
    absl::StatusOr<bool> row = q->Step();
    if (!row.ok()) return row.status();
    if (!*row) break;
    uint64_t position = q->Int(0);
    uint64_t expected = range.size() + 1;
    if (position != expected) {
      Fail(report, expected,
           position < expected
               ? absl::StrCat("position ", position, " appears twice")
               : absl::StrCat("position ", expected, " is missing (the next is ", position, ")"));
      return absl::OkStatus();
    }
    std::string game_id = q->Text(1);
    std::string bytes = q->Text(4);
    Hash leaf = LeafHash(bytes);
    if (q->Text(5) != AsBytes(leaf)) {
      Fail(report, position, "the event's bytes do not match its recorded leaf hash");
      return absl::OkStatus();
    }
    absl::StatusOr<v1::Event> event = ParseCanonical<v1::Event>(bytes);
    if (!event.ok()) {
      Fail(report, position, std::string(event.status().message()));
      return absl::OkStatus();
    }
    if (!streams.Check(report, position, game_id, q->Int(2), q->IsNull(3) ? "" : q->Text(3),
                       *event)) {
      return absl::OkStatus();
    }
    range.Append(leaf);
    leaves.push_back(leaf);
    ++report.events;
    while (next_checkpoint < checkpoints.size() &&
           checkpoints[next_checkpoint].tree_size() == range.size()) {
      if (AsBytes(range.Root()) != checkpoints[next_checkpoint].root_hash()) {
        Fail(report, last_good_checkpoint + 1,
             absl::StrCat("the Merkle root of positions 1..", range.size(),
                          " differs from its signed checkpoint: an event after position ",
                          last_good_checkpoint, " and at or before ", range.size(),
                          " was changed, removed or reordered"));
        return absl::OkStatus();
      }
      last_good_checkpoint = range.size();
      ++next_checkpoint;
    }
    if (options.progress && (range.size() % 1024 == 0 || range.size() == *total)) {
      options.progress(range.size(), *total);
    }
  }
  for (const auto& [game, rev] : streams.revisions) games[game] = rev;
  if (next_checkpoint < checkpoints.size()) {
    Fail(report, range.size() + 1,
         absl::StrCat("the log ends at position ", range.size(), " but a signed checkpoint covers ",
                      checkpoints[next_checkpoint].tree_size(), " events: its tail was truncated"));
  }
  return absl::OkStatus();
}

// Every ruling row belongs to an event, in order, and parses.
absl::Status CheckRulingRows(LogReader& reader, uint64_t head, AuditReport& report) {
  absl::StatusOr<Stmt> q = Stmt::Prepare(
      reader.db(), "SELECT position, seq, ruling FROM rulings ORDER BY position, seq");
  if (!q.ok()) return q.status();
  uint64_t last_position = 0;
  int64_t next_seq = 0;
  for (;;) {
    absl::StatusOr<bool> row = q->Step();
    if (!row.ok()) return row.status();
    if (!*row) break;
    uint64_t position = q->Int(0);
    if (position != last_position) next_seq = 0;
    last_position = position;
    if (position == 0 || position > head) {
      Fail(report, position,
           absl::StrCat("a ruling row refers to position ", position, ", which holds no event"));
      return absl::OkStatus();
    }
    if (q->Int(1) != next_seq++) {
      Fail(report, position, "the rulings of this event are not numbered 0, 1, 2, ...");
      return absl::OkStatus();
    }
    // Canonical, as the writer stores it: bytes with unknown fields in them
    // would carry what no re-adjudication compares.
    if (absl::StatusOr<v1::Ruling> ruling = ParseCanonical<v1::Ruling>(q->Text(2)); !ruling.ok()) {
      Fail(report, position, absl::StrCat("a ruling of this event: ", ruling.status().message()));
      return absl::OkStatus();
    }
    ++report.rulings;
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<AuditReport> AuditLog(LogReader& reader, const AuditOptions& options) {
  AuditReport report;
  report.readjudicated = options.judge != nullptr;
  absl::StatusOr<Transaction> snapshot = Transaction::Read(reader.db());
  if (!snapshot.ok()) return snapshot.status();

  std::string key = options.public_key_der;
  report.key_trusted = !key.empty();
  if (key.empty()) {
    absl::StatusOr<std::string> recorded = reader.RecordedPublicKey();
    if (absl::IsNotFound(recorded.status())) {
      Fail(report, 0, "the ledger records no public key, and none was given");
      return report;
    }
    if (!recorded.ok()) return recorded.status();
    key = *recorded;
  }
  report.key_id_hex = ToHex(Sha256(key));
  if (options.game_id) {
    absl::StatusOr<std::string> pin = reader.RulesPin(*options.game_id);
    if (!pin.ok()) return pin.status();
  }

  absl::StatusOr<std::vector<v1::Checkpoint>> checkpoints = reader.Checkpoints();
  if (!checkpoints.ok()) {
    if (absl::Status s = Absorb(report, checkpoints.status()); !s.ok()) return s;
    return report;
  }
  report.checkpoints = checkpoints->size();
  for (const v1::Checkpoint& c : *checkpoints) {
    if (absl::Status s = VerifyCheckpoint(c, key); !s.ok()) {
      Fail(report, 0, std::string(s.message()));
      return report;
    }
  }
  if (!checkpoints->empty()) {
    report.signed_size = checkpoints->back().tree_size();
    report.signed_root_hex = ToHex(checkpoints->back().root_hash());
  }

  std::vector<Hash> leaves;
  std::map<std::string, uint64_t> games;
  if (absl::Status s = WalkLog(reader, options, *checkpoints, leaves, games, report); !s.ok()) {
    if (s = Absorb(report, s); !s.ok()) return s;
  }
  if (!report.intact) return report;
  report.games = games.size();

  // Consistency between successive checkpoints, by proof, all from one
  // tree (WalkLog checked every checkpoint's size is within the log).
  const uint64_t log_size = leaves.size();
  report.unsigned_tail = log_size - std::min<uint64_t>(report.signed_size, log_size);
  const MerkleTree tree(std::move(leaves));
  for (size_t i = 1; i < checkpoints->size(); ++i) {
    const v1::Checkpoint& a = (*checkpoints)[i - 1];
    const v1::Checkpoint& b = (*checkpoints)[i];
    absl::StatusOr<std::vector<Hash>> proof = tree.ConsistencyProof(a.tree_size(), b.tree_size());
    Hash ra, rb;
    absl::Status s = proof.status();
    if (s.ok() && (!HashFromBytes(a.root_hash(), &ra) || !HashFromBytes(b.root_hash(), &rb))) {
      s = absl::DataLossError("a checkpoint root is not 32 bytes");
    }
    if (s.ok()) s = VerifyConsistency(a.tree_size(), b.tree_size(), ra, rb, *proof);
    if (!s.ok()) {
      Fail(report, a.tree_size() + 1,
           absl::StrCat("checkpoints at sizes ", a.tree_size(), " and ", b.tree_size(),
                        " are not consistent: ", s.message()));
      return report;
    }
  }

  if (absl::Status s = CheckRulingRows(reader, log_size, report); !s.ok()) {
    if (s = Absorb(report, s); !s.ok()) return s;
  }
  if (!report.intact) return report;

  for (const auto& [game, revisions] : games) {
    absl::StatusOr<std::string> pin = reader.RulesPin(game);
    if (!pin.ok()) {
      Fail(report, 0,
           absl::StrCat("game '", game, "' has no pinned rules: ", pin.status().message()));
      return report;
    }
    if (options.judge == nullptr || (options.game_id && *options.game_id != game)) continue;
    absl::StatusOr<std::vector<v1::LedgerEntry>> entries =
        reader.ReadGame(game, 0, std::numeric_limits<int64_t>::max());
    if (!entries.ok()) {
      if (absl::Status s = Absorb(report, entries.status()); !s.ok()) return s;
      return report;
    }
    if (!Readjudicate(report, *options.judge, game, *pin, *entries)) return report;
  }
  return report;
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
  if (absl::Status s = VerifyCheckpoint(cp, key); !s.ok()) {
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
    absl::StatusOr<v1::Event> event = ParseCanonical<v1::Event>(e.event());
    if (!event.ok()) {
      Fail(report, e.position(), std::string(event.status().message()));
      return report;
    }
    if (!streams.Check(report, e.position(), e.game_id(), e.revision(), event->idempotency_key(),
                       *event)) {
      return report;
    }
    std::vector<Hash> path;
    for (const std::string& h : p.inclusion_proof()) {
      if (!HashFromBytes(h, &path.emplace_back())) {
        Fail(report, e.position(), "an inclusion proof hash is not 32 bytes");
        return report;
      }
    }
    absl::Status s =
        VerifyInclusion(e.position() - 1, cp.tree_size(), LeafHash(e.event()), path, root);
    if (e.position() == 0 || !s.ok()) {
      Fail(report, e.position(), absl::StrCat("the event is not in the signed log: ", s.message()));
      return report;
    }
    ++report.events;
    report.rulings += e.rulings_size();
    entries.push_back(e);
  }
  report.games = 1;
  bool ended = false;
  if (options.judge != nullptr && !Readjudicate(report, *options.judge, bundle.game_id(),
                                                bundle.rules_pin(), entries, &ended)) {
    return report;
  }
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
