// The standings a tournament's log records (TournamentEvent
// standings_recorded, proto/DOMAIN.md "Tournaments in the ledger"): when
// they are due and what they hold, as pure functions of the tournament's
// events and its games' facts, so the server that appends them and the
// audit that derives them again (`arbiter verify`) compute the same bytes.
#ifndef ARBITER_ADJUDICATOR_TOURNAMENT_RECORDED_STANDINGS_H_
#define ARBITER_ADJUDICATOR_TOURNAMENT_RECORDED_STANDINGS_H_

#include <optional>
#include <vector>

#include "absl/status/status.h"
#include "adjudicator/tournament/game_facts.h"
#include "arbiter/v1/tournament.pb.h"

namespace arbiter::tournament {

// The last round n such that rounds 1..n are all paired and no pairing of
// theirs is pending (each decided, forfeited, void or mismatched); 0 when
// round 1 is not complete.
int CompleteThrough(const v1::Tournament& t, const GameFactsMap& games);

// The standings after round `round`: ComputeStandings over the rounds up to
// `round` (later rounds' pairings and results left out).
v1::StandingsReport RoundStandings(const v1::Tournament& t, const GameFactsMap& games, int round);

// The standings_recorded that `events` (a tournament's stream) call for
// next, `t` being their fold and `games` its games' facts: the standings of
// round n = CompleteThrough, when n >= 1 and the stream's last
// standings_recorded is not exactly (n, those standings): a round's last
// result, and every later change to what rounds 1..n count, is recorded
// once. nullopt when nothing is due, so a second writer that read the same
// log appends nothing.
std::optional<v1::StandingsRecorded> StandingsDue(const std::vector<v1::TournamentEvent>& events,
                                                  const v1::Tournament& t,
                                                  const GameFactsMap& games);

// OK when `recorded` holds the standings RoundStandings gives for its round;
// else FAILED_PRECONDITION saying where they first differ.
absl::Status CheckRecordedStandings(const v1::Tournament& t, const GameFactsMap& games,
                                    const v1::StandingsRecorded& recorded);

}  // namespace arbiter::tournament

#endif  // ARBITER_ADJUDICATOR_TOURNAMENT_RECORDED_STANDINGS_H_
