// One append inside the writer's transaction: validation, idempotency,
// optimistic concurrency, judging, and the rows it writes.
#include "ledger/writer.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "ledger/append_checks.h"
#include "ledger/hash.h"
#include "ledger/writer_internal.h"
#include "proto/canonical/canonical_bytes.h"

namespace arbiter::ledger {
absl::Status Writer::Prepare(Job& job) {
  if (absl::Status s = ValidateAppend(job.game_id, job.events); !s.ok()) return s;
  job.canonical.reserve(job.events.size());
  job.leaves.reserve(job.events.size());
  for (const v1::Event& e : job.events) {
    job.canonical.push_back(CanonicalBytes(e));
    job.leaves.push_back(LeafHash(job.canonical.back()));
  }
  return absl::OkStatus();
}

absl::StatusOr<uint64_t> Writer::CurrentRevision(const std::string& game_id, const Batch& batch) {
  if (auto it = batch.revisions.find(game_id); it != batch.revisions.end()) return it->second;
  if (auto it = revisions_.find(game_id); it != revisions_.end()) return it->second;
  Stmt& q = stmts_->max_revision;
  ResetOnExit reset(q);
  q.Bind(1, game_id);
  absl::StatusOr<bool> row = q.Step();
  if (!row.ok()) return row.status();
  uint64_t rev = q.Int(0);
  // Cache only what is committed: the batch has not touched this game.
  revisions_[game_id] = rev;
  return rev;
}

absl::StatusOr<std::unique_ptr<GameJudge>> Writer::WorkingFold(const std::string& game_id,
                                                               uint64_t revision,
                                                               const v1::Event& first,
                                                               const Batch& batch) {
  if (auto it = batch.folds.find(game_id); it != batch.folds.end()) return it->second->Clone();
  if (revision == 0) return config_.judge->Open(game_id, first.game_created());
  if (std::shared_ptr<const GameJudge> committed = config_.judge->Committed(game_id, revision)) {
    return committed->Clone();
  }
  return Replay(game_id);
}

absl::StatusOr<std::unique_ptr<GameJudge>> Writer::Replay(const std::string& game_id) {
  // The game continues only under the rules it was created under: the pin
  // recorded then chooses them (a later version may rule otherwise).
  Stmt& p = stmts_->game_pin;
  ResetOnExit reset_pin(p);
  p.Bind(1, game_id);
  absl::StatusOr<bool> pinned = p.Step();
  if (!pinned.ok()) return pinned.status();
  const std::optional<std::string> pin =
      *pinned ? std::optional<std::string>(p.Text(0)) : std::nullopt;
  // The stored stream, committed (the batch has not touched this game).
  Stmt& q = stmts_->game_events;
  ResetOnExit reset(q);
  q.Bind(1, game_id);
  return ReplayStream(*config_.judge, game_id, pin,
                      [&q]() -> absl::StatusOr<std::optional<std::string>> {
                        absl::StatusOr<bool> row = q.Step();
                        if (!row.ok()) return row.status();
                        if (!*row) return std::nullopt;
                        return q.Text(0);
                      });
}

absl::StatusOr<std::vector<v1::LedgerEntry>> Writer::ReadRecorded(
    const std::vector<uint64_t>& positions) {
  std::vector<v1::LedgerEntry> out;
  for (uint64_t pos : positions) {
    v1::LedgerEntry& e = out.emplace_back();
    Stmt& q = stmts_->event_at;
    ResetOnExit reset(q);
    q.Bind(1, static_cast<int64_t>(pos));
    absl::StatusOr<bool> row = q.Step();
    if (!row.ok()) return row.status();
    if (!*row) return absl::InternalError(absl::StrCat("position ", pos, " vanished"));
    e.set_position(pos);
    e.set_game_id(q.Text(0));
    e.set_revision(q.Int(1));
    e.set_event(q.Text(2));
    Stmt& r = stmts_->rulings_at;
    ResetOnExit reset_r(r);
    r.Bind(1, static_cast<int64_t>(pos));
    for (;;) {
      absl::StatusOr<bool> more = r.Step();
      if (!more.ok()) return more.status();
      if (!*more) break;
      if (!e.add_rulings()->ParseFromString(r.Text(0))) {
        return absl::DataLossError(absl::StrCat("a ruling at position ", pos, " does not parse"));
      }
    }
  }
  return out;
}

absl::StatusOr<std::vector<v1::LedgerEntry>> Writer::ProcessAppend(Job& job, Batch& batch) {
  std::vector<std::string>& canonical = job.canonical;

  // Idempotency: a key, once recorded in a game's stream, forever names
  // that event there (another game's stream has keys of its own).
  std::vector<uint64_t> recorded;
  size_t keyed = 0;
  for (size_t i = 0; i < job.events.size(); ++i) {
    const std::string& key = job.events[i].idempotency_key();
    if (key.empty()) continue;
    ++keyed;
    Stmt& q = stmts_->find_key;
    ResetOnExit reset(q);
    q.Bind(1, job.game_id).Bind(2, key);
    absl::StatusOr<bool> row = q.Step();
    if (!row.ok()) return row.status();
    if (!*row) continue;
    if (q.Text(1) != canonical[i]) {
      return absl::AlreadyExistsError(absl::StrCat("idempotency key '", key,
                                                   "' already names the event at position ",
                                                   q.Int(0), ", with other content"));
    }
    recorded.push_back(q.Int(0));
  }
  if (!recorded.empty()) {
    if (recorded.size() == job.events.size()) return ReadRecorded(recorded);
    return absl::InvalidArgumentError(
        absl::StrCat("the append mixes ", recorded.size(), " already recorded event(s) with ",
                     job.events.size() - recorded.size(), " new one(s); ", keyed, " carry keys"));
  }

  absl::StatusOr<uint64_t> current = CurrentRevision(job.game_id, batch);
  if (!current.ok()) return current.status();
  if (absl::Status s = CheckAgainstStream(job.game_id, job.events, *current, job.expected);
      !s.ok()) {
    return s;
  }

  absl::StatusOr<std::unique_ptr<GameJudge>> fold =
      WorkingFold(job.game_id, *current, job.events[0], batch);
  if (!fold.ok()) return fold.status();
  GameJudge* judge = fold->get();

  // `batch` changes only once the whole append has succeeded.
  std::vector<v1::LedgerEntry> out;
  bool game_over = false;
  for (size_t i = 0; i < job.events.size(); ++i) {
    absl::StatusOr<Verdict> verdict = judge->Apply(job.events[i]);
    if (!verdict.ok()) return verdict.status();
    uint64_t position = batch.head + 1 + i;
    uint64_t revision = *current + 1 + i;
    if (revision == 1) {
      stmts_->insert_game.Bind(1, job.game_id)
          .Bind(2, static_cast<int64_t>(position))
          .Bind(3, judge->RulesPin());
      if (absl::Status s = stmts_->insert_game.Run(); !s.ok()) return s;
    }
    const Hash& leaf = job.leaves[i];
    Stmt& ins = stmts_->insert_event;
    ins.Bind(1, static_cast<int64_t>(position))
        .Bind(2, job.game_id)
        .Bind(3, static_cast<int64_t>(revision))
        .BindBlob(5, canonical[i])
        .BindBlob(6, AsBytes(leaf));
    const std::string& key = job.events[i].idempotency_key();
    if (key.empty()) {
      ins.BindNull(4);
    } else {
      ins.Bind(4, key);
    }
    if (absl::Status s = ins.Run(); !s.ok()) return s;
    v1::LedgerEntry& entry = out.emplace_back();
    for (size_t k = 0; k < verdict->rulings.size(); ++k) {
      stmts_->insert_ruling.Bind(1, static_cast<int64_t>(position))
          .Bind(2, static_cast<int64_t>(k))
          .BindBlob(3, CanonicalBytes(verdict->rulings[k]));
      if (absl::Status s = stmts_->insert_ruling.Run(); !s.ok()) return s;
      *entry.add_rulings() = std::move(verdict->rulings[k]);
    }
    entry.set_position(position);
    entry.set_game_id(job.game_id);
    entry.set_revision(revision);
    entry.set_event(std::move(canonical[i]));
    game_over = game_over || verdict->game_over;
  }
  batch.head += job.events.size();
  for (const Hash& leaf : job.leaves) batch.range.Append(leaf);
  if (game_over) batch.ended_games.push_back(job.game_id);
  batch.revisions[job.game_id] = *current + job.events.size();
  batch.folds[job.game_id] = *std::move(fold);
  return out;
}

}  // namespace arbiter::ledger
