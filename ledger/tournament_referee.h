// How the audit re-derives tournaments without knowing the engine or the
// standings (ledger knows neither), as judge.h re-adjudicates games: the
// CLI's `verify` hands the audit an implementation from above
// (adjudicator/service/tournament_referee.h). The audit feeds it the log in
// position order: each game's fold after each re-judged event, each
// tournament event after its structural checks (tournament_audit.h).
#ifndef ARBITER_LEDGER_TOURNAMENT_REFEREE_H_
#define ARBITER_LEDGER_TOURNAMENT_REFEREE_H_

#include <cstdint>
#include <optional>
#include <string>

#include "arbiter/v1/tournament.pb.h"
#include "ledger/judge.h"

namespace arbiter::ledger {

class TournamentReferee {
 public:
  virtual ~TournamentReferee() = default;

  // `game_id`'s event was re-judged; `fold` is the game as it leaves it
  // (valid only during the call).
  virtual void GameAdvanced(const std::string& game_id, const GameJudge& fold) = 0;

  // The next event of tournament `tournament_id`, at `revision`. A finding
  // in words, naming the tournament (and the round, for standings), when
  // the event does not follow from the log before it; nullopt otherwise.
  virtual std::optional<std::string> Apply(const std::string& tournament_id, uint64_t revision,
                                           const v1::TournamentEvent& event) = 0;

  // After the last event: a finding naming a tournament whose games are
  // missing from the log or were recorded under another pairing; nullopt
  // when there is none.
  virtual std::optional<std::string> Finish() = 0;
};

}  // namespace arbiter::ledger

#endif  // ARBITER_LEDGER_TOURNAMENT_REFEREE_H_
