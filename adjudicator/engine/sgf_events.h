// An SGF game record as the events of DOMAIN.md §3 (`arbiter import-sgf`).
//
// gameCreated (game id as given; the default ruleset, kDefaultRuleset; venue
// SAME_SITE; scheduled start from DT at 00:00Z (a partial DT: the first day
// of its span, SgfDateNote), or from the day the caller gives for a record
// without one, never a made-up date;
// komiStones = KM / 2; setup from AB/AW/PL; a time control only when BL/WL
// are present, see below), gameStarted, one move or pass per main-line move
// and, when RE says X+R, the loser's resign. Times never go backwards:
// records without BL/WL have their moves one second apart; with them, time
// advances by what each move used, as the remaining times show.
//
// The clock: the main time is TM (seconds), or else the largest main-time
// BL/WL rounded up to a minute. With OT "N x T byo-yomi" (as KGS, CGoban and
// OGS write it, "5x30 byo-yomi"), a node with OB/OW is in byo-yomi, OB/OW
// counting the periods left with the current one and BL/WL the time left in
// it; the game gets that byo-yomi when every move fits the reading (counts
// never rise or reach zero, a period's time stays within (0, T], no main time
// after byo-yomi). Without byo-yomi, main time only, when each player's
// remaining times only go down and stay above zero. A record that fits
// neither keeps its moves' times but gets no time control (a remaining time
// that went up then costs nothing), so the adjudicator never rules a flag
// the record did not see.
#ifndef ARBITER_ADJUDICATOR_ENGINE_SGF_EVENTS_H_
#define ARBITER_ADJUDICATOR_ENGINE_SGF_EVENTS_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/civil_time.h"
#include "adjudicator/engine/sgf.h"
#include "arbiter/v1/events.pb.h"

namespace arbiter {

// Fails, naming the move's place in the file, if a move of the main line is
// illegal on the board (occupied, suicide, a repeated situation). `game_id`
// names the game: GN is a title, not an identifier (ten of the shared GNU Go
// records share one), so the caller chooses, e.g. the file's name.
// `undated` is the day of a record whose DT has no date (YYYY-MM-DD); a
// record with neither is INVALID_ARGUMENT: it cannot be dated.
absl::StatusOr<std::vector<v1::Event>> SgfToEvents(
    const SgfGame& game, std::string_view game_id,
    std::optional<absl::CivilDay> undated = std::nullopt);

// The day DT gives (its leading YYYY-MM-DD; for a partial date as SGF FF[4]
// allows, "YYYY-MM" or "YYYY", first in a list or alone, the first day of
// the span it names), or nullopt when it gives none.
std::optional<absl::CivilDay> SgfDate(const SgfGame& game);

// What the import says of the day it took from a partial DT ("DT[1996-08]
// names no day: the game is dated 1996-08-01, the first day of the span it
// names"); empty when DT gives a day or none.
std::string SgfDateNote(const SgfGame& game);

}  // namespace arbiter

#endif  // ARBITER_ADJUDICATOR_ENGINE_SGF_EVENTS_H_
