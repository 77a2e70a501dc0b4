// One append to the ledger (Ledger::Append, Ledger::AppendAndWait): what is
// appended to which stream, and what its caller is handed once it is
// durable or refused. A plain value, as LevelDB's WriteBatch and
// Trillian's QueueLeavesRequest are: every kind of append (a game's, a
// tournament's, a venue's sync, a dry run) goes through the one queue.
#ifndef ARBITER_LEDGER_APPEND_REQUEST_H_
#define ARBITER_LEDGER_APPEND_REQUEST_H_

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "arbiter/v1/events.pb.h"
#include "arbiter/v1/ledger.pb.h"
#include "arbiter/v1/rulings.pb.h"
#include "arbiter/v1/tournament.pb.h"
#include "ledger/expected_revision.h"
#include "ledger/judge.h"

namespace arbiter::ledger {

struct AppendRequest {
  // A game's stream (judged, its rulings recorded) or a tournament's
  // ("tournaments/{id}", stream.h: no judge sees it).
  enum class Stream { kGame, kTournament };

  // A game's append of `events`.
  static AppendRequest Game(std::string game_id, ExpectedRevision expected,
                            std::vector<v1::Event> events);
  // A tournament's append of `events`, derived from `derived_from`.
  static AppendRequest Tournament(std::string tournament_id, ExpectedRevision expected,
                                  std::vector<v1::TournamentEvent> events,
                                  std::vector<StreamAt> derived_from = {});

  Stream stream = Stream::kGame;
  // The game's id, or the tournament's.
  std::string id;
  ExpectedRevision expected = ExpectedRevision::Any();
  std::vector<v1::Event> events;                       // a game's
  std::vector<v1::TournamentEvent> tournament_events;  // a tournament's
  // A tournament's: the other streams (games) its events were derived from,
  // at the revisions read; each must still stand there in the append's
  // transaction, so what is derived is a function of the log up to the
  // events' position.
  std::vector<StreamAt> derived_from;
  // A venue's sync (venue_sync.h): the venue's public key (DER). The
  // stream's first events (`expected` is Exactly(0)), written in the same
  // transaction as the venue's claim on the stream (venue_proofs.h), so a
  // stream is never claimed without its events nor holds a venue's events
  // unclaimed.
  std::string venue_key_der;
  // A venue's sync, every batch of it: events the venue judged and
  // recorded, copied as they stand. Judged as a replay is (GameJudge::Apply),
  // not as a client's report (ApplyNew), so that what a venue recorded is
  // taken as the federation would re-derive it.
  bool synced = false;
  // A dry run (a game's only): judged and written as any append in its
  // savepoint, then rolled back; nothing is stored, no idempotency key is
  // consumed and no fold is advanced.
  bool preview = false;
};

// What an append hands its caller.
struct Appended {
  // One per event, rulings included: committed, or (a preview) as they
  // would be had nothing else been appended first.
  std::vector<v1::LedgerEntry> entries;
  // A game's committed append: the game at the entries' last revision, so
  // the caller answers from it without reading the game again; nullptr for
  // a tournament, a preview, or a retry answered with recorded entries.
  std::shared_ptr<const GameJudge> fold;
  // A preview: every event is recorded already with the same bytes (a
  // retry); the entries are the recorded ones and `result` is unset.
  bool recorded = false;
  // A preview: the game's result after the append; unset while it goes on.
  std::optional<v1::Result> result;
};
using OnAppended = std::function<void(absl::StatusOr<Appended>)>;

}  // namespace arbiter::ledger

#endif  // ARBITER_LEDGER_APPEND_REQUEST_H_
