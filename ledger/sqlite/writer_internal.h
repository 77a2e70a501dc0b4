// What writer.cc and writer_rows.cc share: the writer's prepared
// statements. Internal to the ledger.
#ifndef ARBITER_LEDGER_SQLITE_WRITER_INTERNAL_H_
#define ARBITER_LEDGER_SQLITE_WRITER_INTERNAL_H_

#include <memory>
#include <utility>

#include "absl/status/statusor.h"
#include "ledger/sqlite.h"
#include "ledger/sqlite/writer.h"

namespace arbiter::ledger {

struct Writer::Statements {
  Stmt find_key, max_revision, insert_event, insert_ruling, insert_arrival, insert_game,
      insert_checkpoint, game_events, event_at, rulings_at, game_pin, savepoint, release,
      rollback_to;

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
        {&s->insert_arrival, "INSERT INTO arrivals(position, received_micros) VALUES(?, ?)"},
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

}  // namespace arbiter::ledger

#endif  // ARBITER_LEDGER_SQLITE_WRITER_INTERNAL_H_
