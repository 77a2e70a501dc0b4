// What the standings need from the ledger about one game: its result, the
// warnings each colour received, the ruling that decided it (for the
// reasons sidecar) and who was recorded as playing it. The service reads
// these from its read model (GetGame, ListRulings); tests write them by
// hand. Nothing here is recomputed.
#ifndef ARBITER_ADJUDICATOR_TOURNAMENT_GAME_FACTS_H_
#define ARBITER_ADJUDICATOR_TOURNAMENT_GAME_FACTS_H_

#include <optional>
#include <string>

#include "absl/container/flat_hash_map.h"
#include "arbiter/v1/rulings.pb.h"

namespace arbiter::tournament {

struct GameFacts {
  std::optional<v1::Result> result;  // absent while the game goes on
  // WARNING sanctions against each colour (a ruling against BOTH counts for
  // both), decided rulings only, overturned ones left out: art. 27
  // individual 1.B.
  int warnings_black = 0;
  int warnings_white = 0;
  std::optional<v1::Ruling> deciding_ruling;  // the ruling result.ruling names
  // The players the game was recorded with (its gameCreated black and
  // white names). The standings check them against the pairing
  // (names.h, RecordedAs); empty: not known, not checked.
  std::string recorded_black;
  std::string recorded_white;
  // Whether each colour was recorded withdrawing from the competition in
  // this game (the `withdrew` event, 2002 art. 23.2): withdrawals.h.
  bool withdrew_black = false;
  bool withdrew_white = false;
  // The chief arbiter cancelled the game (gameCancelled, DOMAIN.md §3.2):
  // the reason. A cancelled game is in no standing: its pairing is pending
  // as if no game were attached, and the facts above are left empty.
  std::optional<std::string> cancelled;
};

// By game id. A pairing whose game is missing is pending.
using GameFactsMap = absl::flat_hash_map<std::string, GameFacts>;

// Counts WARNING sanctions per colour over a game's whole ruling history
// (every page of it at once: a ruling overturned on appeal is named by a
// later one's `supersedes`). Pending rulings and rulings a later ruling
// supersedes do not count.
void CountWarnings(const google::protobuf::RepeatedPtrField<v1::Ruling>& rulings, GameFacts* facts);

}  // namespace arbiter::tournament

#endif  // ARBITER_ADJUDICATOR_TOURNAMENT_GAME_FACTS_H_
