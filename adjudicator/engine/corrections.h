// Corrections (DOMAIN.md §3.1): the chief arbiter voids a mistaken event with
// an `eventVoided` that cites its position and a reason. The ledger is
// append-only, so the voided event stays in the log; the fold is rebuilt
// from the game's events without it, and the events after it are judged
// again as if it had never been recorded.
//
// The ruling history is append-only too. The rebuild reuses the number of
// every ruling it issues again unchanged (same event, same content), so the
// decisions and appeals that cite rulings by number still find them. Each
// ruling of the history that the rebuild does not issue again is superseded
// by one ruling of the correction (`voided`, `supersedes`, the reason as
// `note`), and the rulings the rebuild issues anew follow, under new numbers.
// What time alone decided by the correction's instant in the re-judged game
// (a flag, a lateness limit) is ruled at the correction itself.
// Voiding is a procedure of the record, not an article: no sanctioning in
// the rules data governs it, and the superseding rulings cite the clause of
// the ruling they supersede.
//
// A game created by mistake: the chief arbiter cancels it with
// `gameCancelled {reason}` (DOMAIN.md §3.2). Like a correction it is a
// procedure of the record: it issues no ruling and sanctions nobody. The game
// stays in the ledger as recorded; the hall and the standings leave it out,
// and after it only a correction is accepted (so voiding the `gameCancelled`
// itself restores the game).
//
// Handlers of the table of event kinds (adjudicator_kinds.cc) over the fold
// they change; each checks everything that can make its event bad input
// before it changes anything, so an error leaves the fold as it was.
#ifndef ARBITER_ADJUDICATOR_ENGINE_CORRECTIONS_H_
#define ARBITER_ADJUDICATOR_ENGINE_CORRECTIONS_H_

#include <vector>

#include "absl/status/status.h"
#include "adjudicator/engine/adjudicator.h"
#include "arbiter/v1/events.pb.h"

namespace arbiter {

// The handlers of corrections: a friend of Adjudicator, whose state they change.
class Corrections {
 public:
  // Voids an earlier event: the fold rebuilt without it (Adjudicator::Replay,
  // adjudicator_correction.cc) replaces this one, after the superseding rulings.
  static absl::Status OnEventVoided(Adjudicator& a, const v1::EventVoided& v);
  // Cancels the game: the clocks stop where they are, nothing is ruled.
  static absl::Status OnGameCancelled(Adjudicator& a, const v1::GameCancelled& c);

 private:
  // Whether `v` names an event that may be voided: an earlier one, neither
  // the gameCreated nor a correction, not voided already; a reason given.
  static absl::Status CheckVoidable(const Adjudicator& a, const v1::EventVoided& v);
  // One ruling of the correction for each ruling of `a`'s history that the
  // rebuild `trial` does not issue again, superseding it under the next
  // numbers.
  static std::vector<v1::Ruling> SupersedingRulings(const Adjudicator& a, const Adjudicator& trial,
                                                    const v1::EventVoided& v);
};

}  // namespace arbiter

#endif  // ARBITER_ADJUDICATOR_ENGINE_CORRECTIONS_H_
