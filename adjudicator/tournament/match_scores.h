// The matches of a team event as their boards finish (art. 27 团体赛: "每场
// 比赛根据两队间局分的多少记场分"): for each round, each pair of teams that
// meet, the board points each has from the boards finished so far, and how
// many boards are still to finish. The standings count a match once all its
// boards have a result; the console's tournament page shows every match of a
// round as it stands, a board at a time ("2:1, one board playing").
//
// A board is one pairing of a player of one team with a player of another
// (a game between team-mates, or with a player outside any team, belongs to
// no match: standings.h); a void board (art. 28.2) counts for nothing and is
// not waited for; a pending or mismatched one (scoring.h) is still to finish.
#ifndef ARBITER_ADJUDICATOR_TOURNAMENT_MATCH_SCORES_H_
#define ARBITER_ADJUDICATOR_TOURNAMENT_MATCH_SCORES_H_

#include <string>
#include <vector>

#include "arbiter/v1/tournament.pb.h"
#include "google/protobuf/repeated_ptr_field.h"

namespace arbiter::tournament {

struct MatchScore {
  int round = 0;
  // The two teams, the first the team of the Black player on the match's
  // lowest board (as the pairing lists them).
  std::string teams[2];
  int board_points[2] = {0, 0};  // 局分 from the boards finished, 2/1/0 a game
  int boards = 0;                // the match's boards, void ones left out
  int finished = 0;              // of those, the ones with a result

  bool Complete() const { return finished == boards; }
  // Match points (场分) of team `side` (0 or 1) once complete: 2 won, 1 drawn.
  int MatchPoints(int side) const;
};

// Every match of `t`'s rounds (round 0, a round robin's never-paired
// forfeits, has none), in round order, then by their lowest board, from its
// scored pairings (a StandingsReport's). Empty for an individual event.
std::vector<MatchScore> MatchScores(
    const v1::Tournament& t, const google::protobuf::RepeatedPtrField<v1::ScoredPairing>& scored);

}  // namespace arbiter::tournament

#endif  // ARBITER_ADJUDICATOR_TOURNAMENT_MATCH_SCORES_H_
