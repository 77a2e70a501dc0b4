// The reasons sidecar: what OpenGotha XML, EGD .h9, AGA and CSV cannot say
// about a result (why the game ended, under which clause, the ruling's text,
// a withdrawal's forfeit or void), keyed by ruling id:
//   "games/G1/rulings/3"  the ruling that decided game G1's result
//   "games/G1/result"     a result no ruling decided (a count, resignation)
//   "tournaments/T/withdrawals/P/round/R/board/B"  an art. 28 forfeit or void
//   ("round/0/vs/Q" for a round robin game never paired)
//   "tournaments/T/round/R/board/B/result"  a result entered without a game
//   (from the paper score sheet, or read from an imported file)
//   "tournaments/T/round/R/bye/P"  player P's bye in round R: the points
//   credited, or why none (a bye after a withdrawal, tournament-2026.3)
// Each entry says what the format wrote instead (`exportedAs`).
#ifndef ARBITER_ADJUDICATOR_TOURNAMENT_SIDECAR_H_
#define ARBITER_ADJUDICATOR_TOURNAMENT_SIDECAR_H_

#include <string>

#include "adjudicator/tournament/game_facts.h"
#include "arbiter/v1/tournament.pb.h"

namespace arbiter::tournament {

v1::ExportSidecar BuildSidecar(const v1::Tournament& t, const v1::StandingsReport& report,
                               const GameFactsMap& games,
                               v1::ExportTournamentRequest::Format format);

// The sidecar as pretty JSON (proto3 mapping), its entries in key order:
// the same sidecar always prints the same bytes.
std::string SidecarJson(const v1::ExportSidecar& sidecar);

}  // namespace arbiter::tournament

#endif  // ARBITER_ADJUDICATOR_TOURNAMENT_SIDECAR_H_
