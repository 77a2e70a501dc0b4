// The result formats federations and rating lists read, written from a
// StandingsReport: EGD's .h9 table, the AGA results file, and CSV. None of
// them can say why a game ended as it did; sidecar.h writes that beside
// them. Pure: each returns the file's text.
//
// EGD .h9: one line per player in standings order, "place name rank country
// club" then our criteria (Pts, then A or TS, then B) and one token per
// round: <opponent's place><+|-|=>/<b|w><handicap>, "!" appended for a game
// not played over the board (a lateness or art. 28 forfeit); "0+", "0=" or
// "0-" for a bye worth 2, 1 or 0 points; "0-" for a round without a
// counted game (pending or void). Both-lose and no-result are "-" for both.
//
// AGA: TOURNEY / PLAYERS / GAMES; a game line is "white black w|b handicap
// komi" (komi in points: 2 per stone). AGA results know only wins played
// over the board: draws, both-lose, no result, forfeits and voids are
// written as "#" comment lines and listed in the sidecar. Players without
// an AGA id get "TMP<n>".
//
// CSV (RFC 4180): one row per standing with the art. 27 criteria, then one
// column per round ("<opponent id> <+|-|=>/<b|w>", "!" by default).
#ifndef ARBITER_ADJUDICATOR_TOURNAMENT_FORMATS_H_
#define ARBITER_ADJUDICATOR_TOURNAMENT_FORMATS_H_

#include <string>

#include "arbiter/v1/tournament.pb.h"

namespace arbiter::tournament {

std::string ExportEgdH9(const v1::Tournament& t, const v1::StandingsReport& report);
std::string ExportAga(const v1::Tournament& t, const v1::StandingsReport& report);
std::string ExportCsv(const v1::Tournament& t, const v1::StandingsReport& report);

// How each format writes one pairing (for the sidecar's exportedAs).
std::string EgdToken(const v1::ScoredPairing& p, const std::string& side);  // from `side`'s view
std::string AgaToken(const v1::ScoredPairing& p);  // "w", "b" or "omitted"

}  // namespace arbiter::tournament

#endif  // ARBITER_ADJUDICATOR_TOURNAMENT_FORMATS_H_
