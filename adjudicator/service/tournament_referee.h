// `arbiter verify`'s tournaments (ledger/tournament_referee.h): each
// tournament stream folded again with the tournament fold, the standings
// recorded at each standings_recorded derived again from the log up to that
// position (recorded_standings.h) and compared, and each tournament's games
// checked against the log: a game a started round attached that the log does
// not hold before the start, or a game recorded with other players or colours
// than its pairing, is reported naming the tournament.
#ifndef ARBITER_ADJUDICATOR_SERVICE_TOURNAMENT_REFEREE_H_
#define ARBITER_ADJUDICATOR_SERVICE_TOURNAMENT_REFEREE_H_

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "adjudicator/tournament/game_facts.h"
#include "arbiter/v1/tournament.pb.h"
#include "ledger/tournament_referee.h"

namespace arbiter::tournament {

class TournamentReferee final : public ledger::TournamentReferee {
 public:
  // The games' folds must be the engine's (adjudicator_judge.h
  // AdjudicatorFold): `verify` judges with AdjudicatorJudge.
  void GameAdvanced(const std::string& game_id, const ledger::GameJudge& fold) override;
  std::optional<std::string> Apply(const std::string& tournament_id, uint64_t revision,
                                   const v1::TournamentEvent& event) override;
  std::optional<std::string> Finish() override;

 private:
  struct Kept {
    std::vector<v1::TournamentEvent> events;
    v1::Tournament folded;
    std::set<int> started;  // rounds a roundStarted named
  };
  // The first game of a round `t` starts that the log does not hold yet.
  std::optional<std::string> MissingGame(const v1::Tournament& t, int round) const;

  std::map<std::string, Kept> tournaments_;
  GameFactsMap games_;  // every game as the log so far leaves it
};

}  // namespace arbiter::tournament

#endif  // ARBITER_ADJUDICATOR_SERVICE_TOURNAMENT_REFEREE_H_
