// How the ledger asks the rules what an event means, without knowing the
// engine. The service wires this to the Adjudicator (and keeps the folds it
// is handed as its read model); tests wire simple judges. The ledger appends
// an event and the rulings its judge derives from it in one transaction, and
// writes nothing when the judge refuses it.
#ifndef ARBITER_LEDGER_JUDGE_H_
#define ARBITER_LEDGER_JUDGE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
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
  // client) and must leave this fold exactly as it was.
  virtual absl::StatusOr<Verdict> Apply(const v1::Event& event) = 0;

  // Judges the next event as reported now, by a client's append or its
  // preview: as Apply, and a judge may refuse (as Apply does: the fold left
  // as it was) what it holds new input to but not a recorded event, since
  // a game is re-derived as it was judged (DOMAIN.md §1). A venue's synced
  // events, judged at the venue, and replays of the stored stream go
  // through Apply. By default, Apply.
  virtual absl::StatusOr<Verdict> ApplyNew(const v1::Event& event) { return Apply(event); }

  // The rules this game is judged under, pinned by content hash (e.g.
  // "cn-2002 sha256:..."). Recorded when the game is created; the audit
  // re-adjudicates only under the same pin.
  virtual std::string RulesPin() const = 0;

  // The game's result so far, or nullptr while it goes on.
  virtual const v1::Result* result() const = 0;

  // An independent copy. The ledger judges an append on a copy, so that a
  // fold it was handed as committed (see Judge::Committed) never sees an
  // event that is refused or whose commit fails.
  virtual std::unique_ptr<GameJudge> Clone() const = 0;
};

// A game's fold as of a committed revision. Shared and never changed again:
// readers may hold it while the writer judges the next append on a copy.
struct CommittedFold {
  std::string game_id;
  uint64_t revision = 0;
  std::shared_ptr<const GameJudge> fold;
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
  // now. By default, Open. The audit calls it (and folds each game) on
  // threads of its own, one Reopen at a time.
  virtual absl::StatusOr<std::unique_ptr<GameJudge>> Reopen(absl::string_view game_id,
                                                            const v1::GameCreated& created,
                                                            absl::string_view /*pin*/) {
    return Open(game_id, created);
  }

  // The fold of `game_id` as of its committed `revision`, if this judge
  // keeps one; nullptr if not, and the ledger replays the stored stream into
  // a fresh Open(). Called on the ledger's writer thread.
  virtual std::shared_ptr<const GameJudge> Committed(absl::string_view /*game_id*/,
                                                     uint64_t /*revision*/) {
    return nullptr;
  }

  // Called on the writer thread after each commit, before any append of it
  // is answered, with the folds the commit advanced (one per game, at its
  // new revision). A judge that keeps them (the service's read model) serves
  // Committed() and its readers from them; the default keeps nothing.
  virtual void OnCommit(const std::vector<CommittedFold>& /*folds*/) {}
};

}  // namespace arbiter::ledger

#endif  // ARBITER_LEDGER_JUDGE_H_
