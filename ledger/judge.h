// How the ledger asks the rules what an event means, without knowing the
// engine. The service wires this to the Adjudicator; tests wire simple
// judges. The ledger appends an event and the rulings its judge derives from
// it in one transaction, and writes nothing when the judge refuses it.
#ifndef ARBITER_LEDGER_JUDGE_H_
#define ARBITER_LEDGER_JUDGE_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/status/statusor.h"
#include "arbiter/v1/events.pb.h"
#include "arbiter/v1/rulings.pb.h"

namespace arbiter::ledger {

// What one event brought about.
struct Verdict {
  std::vector<v1::Ruling> rulings;
  // This event gave the game its result (or changed it): the ledger signs a
  // checkpoint covering it in the same transaction.
  bool game_over = false;
};

// The running fold of one game. The ledger feeds it that game's events in
// stream order, from one thread at a time.
class GameJudge {
 public:
  virtual ~GameJudge() = default;

  // Judges the next event. An error refuses it (its message reaches the
  // client); the ledger then discards this judge and replays the stored
  // stream into a fresh one, so a refused event may leave this one in any
  // state.
  virtual absl::StatusOr<Verdict> Apply(const v1::Event& event) = 0;

  // The rules this game is judged under, pinned by content hash (e.g.
  // "cn-2002 sha256:..."). Recorded when the game is created; the audit
  // re-adjudicates only under the same pin.
  virtual std::string RulesPin() const = 0;
};

class Judge {
 public:
  virtual ~Judge() = default;

  // A fresh fold for `game_id`, whose first event is `created`. An error
  // refuses the game.
  virtual absl::StatusOr<std::unique_ptr<GameJudge>> Open(absl::string_view game_id,
                                                          const v1::GameCreated& created) = 0;

  // A fold for a game the ledger already holds, to replay its stored
  // stream: `pin` is the RulesPin() it recorded when the game was created.
  // A judge whose rules have versions folds under the pinned ones, so the
  // game re-adjudicates as it was judged whatever version is the latest
  // now. By default, Open.
  virtual absl::StatusOr<std::unique_ptr<GameJudge>> Reopen(absl::string_view game_id,
                                                            const v1::GameCreated& created,
                                                            absl::string_view pin) {
    (void)pin;
    return Open(game_id, created);
  }
};

}  // namespace arbiter::ledger

#endif  // ARBITER_LEDGER_JUDGE_H_
