// A refusal in its reader's own language. The engine's refusals are English
// sentences, for a log, a CLI or a client; those an arbiter at the board
// meets on the floor's phone (and the chief arbiter's start of a round on
// the hall's page) also carry, as a payload of the status, a
// reason from kRefusalReasons and the fields its words name ("color":
// "BLACK"), so that the console words them in Chinese or English from the
// one table of words (adjudicator/service/console/static/words.json,
// "refusal"; the console's error JSON carries them as `refusal`).
#ifndef ARBITER_ADJUDICATOR_ENGINE_REFUSAL_REASON_H_
#define ARBITER_ADJUDICATOR_ENGINE_REFUSAL_REASON_H_

#include <initializer_list>
#include <optional>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "google/protobuf/struct.pb.h"

namespace arbiter {

// Every reason a refusal may carry; words.json words each (a test checks).
//   RESULT_FINAL {result}: an event the finished game does not take.
//   GAME_CANCELLED {cause}: any event but a correction after gameCancelled
//     (`cause` its reason).
//   TIME_BEFORE_PREVIOUS {at, previous}: an event dated before the last one.
//   ARRIVAL_NOT_AWAITED {color}: new_input.h.
//   DISPLACED_WITHOUT_LIBERTY {color, point}: stones agreed to stand that
//     take a chain's last liberty (new_input.h; `color` is the chain's).
//   DECISION_LEAVES_NO_LIBERTY {color, point}: a decision letting them stand.
//   RULING_NOT_PENDING {ruling}: a decision on a ruling decided already.
//   CHIEF_ARBITERS_DECISION {ruling, clause}: an arbiter deciding what the
//     clause leaves to the chief arbiter.
//   TAKEBACK_NOT_LAST_MOVE {color}: the last move on the board is not
//     `color`'s.
//   DROPPED_NOT_TO_MOVE {color}: a stone dropped by a player not to move.
//   DISPLACED_NO_STONE {point}; DISPLACED_CANNOT_MOVE: displaced stones the
//     record's board does not show, or cannot move where stated.
//   CAPTURE_NEVER_HELD {point, color}: a capture error at a point that
//     never held a `color` stone; CAPTURE_HAS_LIBERTY {point, color,
//     liberty}: a stone "left dead" that has a liberty.
//   ALREADY_ADJOURNED; NOT_ADJOURNED: an adjournment twice, a resumption of
//     a game not adjourned.
//   FLAG_UNTIMED; FLAG_CLOCK_NOT_RUNNING {color}: a flag in an untimed game,
//     or of a player whose clock is not running.
//   SEALED_NOT_TO_MOVE {color}; SEALED_WITHOUT_MOVES: a sealed move by a
//     player not to move, or in a game recorded without its moves;
//     SEALED_NOT_OPENED {color}: another before `color`'s is opened.
//   PLAY_ENDED: a sealed move or a dropped stone once play has ended (two
//     passes, a contest given up).
//   DEAD_STONES_WITHOUT_MOVES; PLAY_NOT_ENDED: dead stones in a game
//     recorded without its moves, or before play has ended.
//   DEAD_STONE_EMPTY {point}: a dead stone where the board has none.
//   DEAD_CHAIN_INCOMPLETE {point, missing}: a stone named dead whose
//     chain's stone `missing` is not (art. 3).
//   COUNT_NOT_HALVES {count, points}; COUNT_CONTRADICTS {count, counted};
//     COUNT_AFTER_OTHER_RESULT {result}: a count that is no count, that
//     contradicts the one recorded, or after a result not by count.
// And the chief arbiter's "start round" (TournamentService.StartRound):
//   TOURNAMENT_NOT_FOUND {tournament}.
//   ROUND_BEYOND_LAST {round, rounds}: past the tournament's last round.
//   ROUND_NOT_PAIRED {round}; ROUND_BYES_ONLY {round}: no game to create.
//   GAME_DECIDES_OTHER_BOARD {board, game, otherRound, otherBoard}: the
//     board's game id is another pairing's.
//   GAME_NOT_THIS_BOARDS {board, game}: a game under the board's id has
//     other players or colours.
inline constexpr absl::string_view kRefusalReasons[] = {
    "RESULT_FINAL",
    "GAME_CANCELLED",
    "TIME_BEFORE_PREVIOUS",
    "ARRIVAL_NOT_AWAITED",
    "DISPLACED_WITHOUT_LIBERTY",
    "DECISION_LEAVES_NO_LIBERTY",
    "RULING_NOT_PENDING",
    "CHIEF_ARBITERS_DECISION",
    "TAKEBACK_NOT_LAST_MOVE",
    "DROPPED_NOT_TO_MOVE",
    "DISPLACED_NO_STONE",
    "DISPLACED_CANNOT_MOVE",
    "CAPTURE_NEVER_HELD",
    "CAPTURE_HAS_LIBERTY",
    "ALREADY_ADJOURNED",
    "NOT_ADJOURNED",
    "FLAG_UNTIMED",
    "FLAG_CLOCK_NOT_RUNNING",
    "SEALED_NOT_TO_MOVE",
    "SEALED_WITHOUT_MOVES",
    "SEALED_NOT_OPENED",
    "PLAY_ENDED",
    "DEAD_STONES_WITHOUT_MOVES",
    "PLAY_NOT_ENDED",
    "DEAD_STONE_EMPTY",
    "DEAD_CHAIN_INCOMPLETE",
    "COUNT_NOT_HALVES",
    "COUNT_CONTRADICTS",
    "COUNT_AFTER_OTHER_RESULT",
    "TOURNAMENT_NOT_FOUND",
    "ROUND_BEYOND_LAST",
    "ROUND_NOT_PAIRED",
    "ROUND_BYES_ONLY",
    "GAME_DECIDES_OTHER_BOARD",
    "GAME_NOT_THIS_BOARDS",
};

// `status` (not OK) with `reason` and `fields` attached, its code and
// message unchanged.
absl::Status WithRefusalReason(
    absl::Status status, absl::string_view reason,
    std::initializer_list<std::pair<absl::string_view, std::string>> fields = {});

// What WithRefusalReason attached: {"reason": ..., and each field}; nullopt
// for a status without one.
std::optional<google::protobuf::Struct> RefusalReasonOf(const absl::Status& status);

}  // namespace arbiter

#endif  // ARBITER_ADJUDICATOR_ENGINE_REFUSAL_REASON_H_
