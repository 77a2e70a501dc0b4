#include "ledger/audit.h"

#include <algorithm>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "ledger/audit_source.h"
#include "ledger/checkpoint.h"
#include "ledger/checkpoint_note.h"
#include "ledger/hash.h"
#include "ledger/log_rows.h"
#include "ledger/merkle.h"
#include "ledger/stream.h"
#include "ledger/tournament_audit.h"
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

// A finding kept aside while the log is walked: the audit reports the
// structure first (hashes, streams, checkpoints), then the ruling rows, then
// re-adjudication, so one pass finds what the separate passes found.
struct Finding {
  uint64_t position = 0;
  std::string why;
};
void Note(std::optional<Finding>& finding, uint64_t position, std::string why) {
  if (!finding) finding = Finding{position, std::move(why)};
}

// The one pass over the log. Each event is read once, re-hashed, parsed and
// checked canonical once, checked against its stream, folded into the Merkle
// tree (checkpoint roots) and, with a judge, fed at once to its game's
// fold, its ruling rows read alongside (a second cursor, in the same
// position order) and compared with the re-judged ones.
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
  struct Game {
    std::unique_ptr<GameJudge> fold;  // null: not (or no longer) re-judged
  };
  bool Report(const std::optional<Finding>& f) { return !f || Fail(report_, f->position, f->why); }
  // Steps the rulings cursor.
  absl::Status NextRuling();
  // Reads the ruling rows of `position` into recorded_.
  absl::Status TakeRulings(uint64_t position);
  // A tournament's entry (tournament_audit.h): checked, kept for its
  // stream, never judged; false after reporting.
  bool TakeTournamentEntry(uint64_t position, const std::string& stream, uint64_t revision,
                           bool keyed, const std::string& bytes);
  // The tournaments' referee while the games are re-judged whole: nullptr
  // without one, for one game only, or once re-adjudication has failed.
  TournamentReferee* Referee() const {
    return options_.judge != nullptr && !options_.game_id && !readjudication_ ? options_.tournaments
                                                                              : nullptr;
  }
  // Re-judges one event of its game, or checks its ruling rows alone.
  void JudgeEvent(uint64_t position, const std::string& game_id, uint64_t revision,
                  const v1::Event& event);

  const AuditOptions& options_;
  const std::vector<v1::Checkpoint>& checkpoints_;
  const std::unordered_map<std::string, std::string> pins_;
  AuditReport& report_;
  std::unordered_map<std::string, Game> games_;
  std::optional<Finding> ruling_rows_, readjudication_;
  TournamentEntries tournaments_;

  AuditSource* source_ = nullptr;  // for the rulings cursor, during Run
  StoredRuling ruling_row_;
  bool has_ruling_row_ = false;  // ruling_row_ holds the cursor's row
  std::vector<std::string> recorded_;
  v1::Ruling ruling_;  // scratch, for the canonical check of a ruling row
};

absl::Status LogWalk::NextRuling() {
  absl::StatusOr<bool> row = source_->NextRuling(ruling_row_);
  if (!row.ok()) return row.status();
  has_ruling_row_ = *row;
  return absl::OkStatus();
}

absl::Status LogWalk::TakeRulings(uint64_t position) {
  recorded_.clear();
  // Rows before this position belong to no event: the earlier positions
  // have taken theirs.
  for (; has_ruling_row_ && static_cast<uint64_t>(ruling_row_.position) < position;) {
    Note(ruling_rows_, ruling_row_.position,
         absl::StrCat("a ruling row refers to position ", ruling_row_.position,
                      ", which holds no event"));
    if (absl::Status s = NextRuling(); !s.ok()) return s;
  }
  for (; has_ruling_row_ && static_cast<uint64_t>(ruling_row_.position) == position;) {
    if (ruling_row_.seq != static_cast<int64_t>(recorded_.size())) {
      Note(ruling_rows_, position, "the rulings of this event are not numbered 0, 1, 2, ...");
    }
    recorded_.push_back(std::move(ruling_row_.ruling));
    ++report_.rulings;
    if (absl::Status s = NextRuling(); !s.ok()) return s;
  }
  return absl::OkStatus();
}

void LogWalk::JudgeEvent(uint64_t position, const std::string& game_id, uint64_t revision,
                         const v1::Event& event) {
  GameJudge* fold = nullptr;
  if (options_.judge != nullptr && !readjudication_ &&
      (!options_.game_id || *options_.game_id == game_id)) {
    Game& game = games_[game_id];
    if (revision == 1) {
      auto pin = pins_.find(game_id);
      if (pin == pins_.end()) {
        Note(readjudication_, 0,
             absl::StrCat("game '", game_id, "' has no pinned rules: no game '", game_id,
                          "' in the ledger"));
      } else if (absl::StatusOr<std::unique_ptr<GameJudge>> opened =
                     OpenFold(*options_.judge, game_id, pin->second, event);
                 !opened.ok()) {
        Note(readjudication_, position, std::string(opened.status().message()));
      } else {
        game.fold = *std::move(opened);
      }
    }
    fold = game.fold.get();
  }
  bool ended = false;
  if (fold != nullptr) {
    absl::Status s = Rejudge(*fold, game_id, revision, event, recorded_, &ended);
    // Rulings equal to the re-judged ones are canonical; others are parsed
    // below, to tell a damaged row from a ruling that differs.
    if (s.ok()) {
      if (TournamentReferee* referee = Referee()) referee->GameAdvanced(game_id, *fold);
      return;
    }
    Note(readjudication_, position, std::string(s.message()));
  }
  // Canonical, as the writer stores them: bytes with unknown fields in them
  // would carry what no re-adjudication compares.
  for (const std::string& bytes : recorded_) {
    if (absl::Status s = ParseCanonicalInto(bytes, &ruling_); !s.ok()) {
      Note(ruling_rows_, position, absl::StrCat("a ruling of this event: ", s.message()));
      return;
    }
  }
}

bool LogWalk::TakeTournamentEntry(uint64_t position, const std::string& stream, uint64_t revision,
                                  bool keyed, const std::string& bytes) {
  if (std::optional<std::string> why = tournaments_.Add(stream, revision, keyed, bytes)) {
    return Fail(report_, position, *std::move(why));
  }
  if (TournamentReferee* referee = Referee()) {
    const std::string id = stream.substr(kTournamentStreamPrefix.size());
    if (std::optional<std::string> why =
            referee->Apply(id, revision, tournaments_.streams().at(id).back())) {
      Note(readjudication_, position, *std::move(why));
    }
  }
  return true;
}

absl::Status LogWalk::Run(AuditSource& source, MerkleTree& tree,
                          std::map<std::string, uint64_t>& games) {
  AuditReport& report = report_;
  absl::StatusOr<uint64_t> total = source.Head();
  if (!total.ok()) return total.status();
  source_ = &source;
  if (absl::Status s = NextRuling(); !s.ok()) return s;
  StreamCheck streams;
  size_t next_checkpoint = 0;
  uint64_t last_good_checkpoint = 0;
  v1::Event event;
  StoredEvent row;
  for (;;) {
    absl::StatusOr<bool> more = source.NextEvent(row);
    if (!more.ok()) return more.status();
    if (!*more) break;
    uint64_t position = row.position;
    uint64_t expected = tree.size() + 1;
    if (position != expected) {
      Fail(report, expected,
           position < expected
               ? absl::StrCat("position ", position, " appears twice")
               : absl::StrCat("position ", expected, " is missing (the next is ", position, ")"));
      return absl::OkStatus();
    }
    const std::string& game_id = row.game_id;
    const std::string& bytes = row.event;
    Hash leaf = EntryLeafHash(game_id, bytes);
    if (row.leaf_hash != AsBytes(leaf)) {
      // A tournament's entry is named: its position alone says nothing of
      // which record a federation rates was changed.
      Fail(report, position,
           absl::StrCat(
               IsTournamentStream(game_id)
                   ? absl::StrCat("tournament '", game_id.substr(kTournamentStreamPrefix.size()),
                                  "' revision ", row.revision, ": ")
                   : "",
               "the event's bytes do not match its recorded leaf hash"));
      return absl::OkStatus();
    }
    const bool tournament = IsTournamentStream(game_id);
    if (tournament) {
      if (!TakeTournamentEntry(position, game_id, row.revision, !row.idempotency_key.empty(),
                               bytes)) {
        return absl::OkStatus();
      }
    } else if (absl::Status s = ParseCanonicalInto(bytes, &event); !s.ok()) {
      Fail(report, position, std::string(s.message()));
      return absl::OkStatus();
    }
    const uint64_t revision = row.revision;
    if (!tournament &&
        !streams.Check(report, position, game_id, revision, row.idempotency_key, event)) {
      return absl::OkStatus();
    }
    tree.Append(leaf);
    ++report.events;
    while (next_checkpoint < checkpoints_.size() &&
           checkpoints_[next_checkpoint].tree_size() == tree.size()) {
      absl::StatusOr<Hash> root = tree.Root(tree.size());
      if (!root.ok()) return root.status();
      if (AsBytes(*root) != checkpoints_[next_checkpoint].root_hash()) {
        Fail(report, last_good_checkpoint + 1,
             absl::StrCat("the Merkle root of positions 1..", tree.size(),
                          " differs from its signed checkpoint: an event after position ",
                          last_good_checkpoint, " and at or before ", tree.size(),
                          " was changed, removed or reordered"));
        return absl::OkStatus();
      }
      last_good_checkpoint = tree.size();
      ++next_checkpoint;
    }
    if (absl::Status s = TakeRulings(position); !s.ok()) return s;
    if (tournament && !recorded_.empty()) {
      Note(ruling_rows_, position, "a ruling row refers to a tournament's event");
    }
    if (!tournament) JudgeEvent(position, game_id, revision, event);
    if (options_.progress && (tree.size() % 1024 == 0 || tree.size() == *total)) {
      options_.progress(tree.size(), *total);
    }
  }
  for (const auto& [game, rev] : streams.revisions) games[game] = rev;
  if (next_checkpoint < checkpoints_.size()) {
    Fail(
        report, tree.size() + 1,
        absl::StrCat("the log ends at position ", tree.size(), " but a signed checkpoint covers ",
                     checkpoints_[next_checkpoint].tree_size(), " events: its tail was truncated"));
    return absl::OkStatus();
  }
  if (has_ruling_row_) {
    Note(ruling_rows_, ruling_row_.position,
         absl::StrCat("a ruling row refers to position ", ruling_row_.position,
                      ", which holds no event"));
  }
  // Every game in the log has its pinned rules, judged or not.
  for (const auto& [game, rev] : games) {
    if (!pins_.contains(game)) {
      Note(readjudication_, 0,
           absl::StrCat("game '", game, "' has no pinned rules: no game '", game,
                        "' in the ledger"));
    }
  }
  for (const auto& [game, g] : games_) report.games_readjudicated += g.fold != nullptr ? 1 : 0;
  report.tournaments = tournaments_.streams().size();
  if (TournamentReferee* referee = Referee()) {
    if (std::optional<std::string> why = referee->Finish()) {
      Note(readjudication_, 0, *std::move(why));
    } else {
      report.tournaments_rederived = report.tournaments;
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
  if (!VerifySignatures(report, *checkpoints, key, options.log_origin)) return report;
  if (!checkpoints->empty()) {
    report.signed_size = checkpoints->back().tree_size();
    report.signed_root_hex = ToHex(checkpoints->back().root_hash());
  }

  MerkleTree tree{std::vector<Hash>()};
  std::map<std::string, uint64_t> games;
  LogWalk walk(options, *checkpoints, *std::move(pins), report);
  if (absl::Status s = walk.Run(source, tree, games); !s.ok()) {
    if (s = Absorb(report, s); !s.ok()) return s;
  }
  if (!report.intact) return report;
  report.games = games.size();

  const uint64_t log_size = tree.size();
  report.unsigned_tail = log_size - std::min<uint64_t>(report.signed_size, log_size);
  if (!CheckConsistency(report, tree, *checkpoints)) return report;
  if (walk.ReportRulingRows()) walk.ReportReadjudication();
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
