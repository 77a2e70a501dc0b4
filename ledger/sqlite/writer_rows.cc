// What one batch reads and writes on the SQLite writer's connection
// (BatchTransaction, batch.h), with its prepared statements.
#include <utility>

#include "absl/strings/str_cat.h"
#include "ledger/internal/append_checks.h"
#include "ledger/sqlite/writer.h"
#include "ledger/sqlite/writer_internal.h"

namespace arbiter::ledger {

absl::Status Writer::Savepoint() { return stmts_->savepoint.Run(); }
absl::Status Writer::Release() { return stmts_->release.Run(); }

absl::Status Writer::RollBack() {
  if (absl::Status s = stmts_->rollback_to.Run(); !s.ok()) return s;
  return stmts_->release.Run();
}

absl::Status Writer::InsertCheckpoint(uint64_t tree_size, const std::string& canonical) {
  stmts_->insert_checkpoint.Bind(1, static_cast<int64_t>(tree_size)).BindBlob(2, canonical);
  return stmts_->insert_checkpoint.Run();
}

absl::Status Writer::Commit() { return tx_->Commit(); }

absl::StatusOr<std::optional<AppendRows::KeyedEvent>> Writer::FindKey(const std::string& game_id,
                                                                      const std::string& key) {
  Stmt& q = stmts_->find_key;
  ResetOnExit reset(q);
  q.Bind(1, game_id).Bind(2, key);
  absl::StatusOr<bool> row = q.Step();
  if (!row.ok()) return row.status();
  if (!*row) return std::nullopt;
  return KeyedEvent{static_cast<uint64_t>(q.Int(0)), q.Text(1)};
}

absl::StatusOr<v1::LedgerEntry> Writer::EntryAt(uint64_t position) {
  v1::LedgerEntry e;
  Stmt& q = stmts_->event_at;
  ResetOnExit reset(q);
  q.Bind(1, static_cast<int64_t>(position));
  absl::StatusOr<bool> row = q.Step();
  if (!row.ok()) return row.status();
  if (!*row) return absl::InternalError(absl::StrCat("position ", position, " vanished"));
  e.set_position(position);
  e.set_game_id(q.Text(0));
  e.set_revision(q.Int(1));
  e.set_event(q.Text(2));
  Stmt& r = stmts_->rulings_at;
  ResetOnExit reset_r(r);
  r.Bind(1, static_cast<int64_t>(position));
  for (;;) {
    absl::StatusOr<bool> more = r.Step();
    if (!more.ok()) return more.status();
    if (!*more) return e;
    if (!e.add_rulings()->ParseFromString(r.Text(0))) {
      return absl::DataLossError(
          absl::StrCat("a ruling at position ", position, " does not parse"));
    }
  }
}

absl::StatusOr<uint64_t> Writer::CommittedRevision(const std::string& game_id) {
  if (auto it = revisions_.find(game_id); it != revisions_.end()) return it->second;
  Stmt& q = stmts_->max_revision;
  ResetOnExit reset(q);
  q.Bind(1, game_id);
  absl::StatusOr<bool> row = q.Step();
  if (!row.ok()) return row.status();
  uint64_t rev = q.Int(0);
  revisions_[game_id] = rev;
  return rev;
}

absl::StatusOr<std::unique_ptr<GameJudge>> Writer::Replay(const std::string& game_id) {
  Stmt& p = stmts_->game_pin;
  ResetOnExit reset_pin(p);
  p.Bind(1, game_id);
  absl::StatusOr<bool> pinned = p.Step();
  if (!pinned.ok()) return pinned.status();
  const std::optional<std::string> pin =
      *pinned ? std::optional<std::string>(p.Text(0)) : std::nullopt;
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

absl::Status Writer::InsertGame(const std::string& game_id, uint64_t first_position,
                                const std::string& rules_pin) {
  stmts_->insert_game.Bind(1, game_id)
      .Bind(2, static_cast<int64_t>(first_position))
      .Bind(3, rules_pin);
  return stmts_->insert_game.Run();
}

absl::Status Writer::InsertEvent(uint64_t position, const std::string& game_id, uint64_t revision,
                                 const std::string& key, const std::string& canonical,
                                 const Hash& leaf) {
  Stmt& ins = stmts_->insert_event;
  ins.Bind(1, static_cast<int64_t>(position))
      .Bind(2, game_id)
      .Bind(3, static_cast<int64_t>(revision))
      .BindBlob(5, canonical)
      .BindBlob(6, AsBytes(leaf));
  if (key.empty()) {
    ins.BindNull(4);
  } else {
    ins.Bind(4, key);
  }
  return ins.Run();
}

absl::Status Writer::InsertArrival(uint64_t position, absl::Time received_at) {
  stmts_->insert_arrival.Bind(1, static_cast<int64_t>(position))
      .Bind(2, absl::ToUnixMicros(received_at));
  return stmts_->insert_arrival.Run();
}

absl::Status Writer::InsertRuling(uint64_t position, uint64_t seq, const std::string& canonical) {
  stmts_->insert_ruling.Bind(1, static_cast<int64_t>(position))
      .Bind(2, static_cast<int64_t>(seq))
      .BindBlob(3, canonical);
  return stmts_->insert_ruling.Run();
}

absl::StatusOr<std::optional<std::string>> Writer::VenueKeyOf(const std::string& game_id) {
  absl::StatusOr<Stmt> q =
      Stmt::Prepare(db_, "SELECT public_key FROM venue_games WHERE game_id = ?");
  if (!q.ok()) return q.status();
  q->Bind(1, game_id);
  absl::StatusOr<bool> row = q->Step();
  if (!row.ok()) return row.status();
  if (!*row) return std::nullopt;
  return q->Text(0);
}

absl::Status Writer::InsertVenueGame(const std::string& game_id, const std::string& venue_id,
                                     const std::string& public_key_der) {
  absl::StatusOr<Stmt> ins =
      Stmt::Prepare(db_, "INSERT INTO venue_games(game_id, venue_id, public_key) VALUES(?, ?, ?)");
  if (!ins.ok()) return ins.status();
  return ins->Bind(1, game_id).Bind(2, venue_id).BindBlob(3, public_key_der).Run();
}

}  // namespace arbiter::ledger
