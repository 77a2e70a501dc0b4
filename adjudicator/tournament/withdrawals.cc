#include "adjudicator/tournament/withdrawals.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "adjudicator/tournament/fold.h"

namespace arbiter::tournament {
namespace {

// Whether `player` has a game with a result, or an entered result, in a
// round after `round`.
bool PlayedAfter(const v1::Tournament& t, const GameFactsMap& games, const std::string& player,
                 int round) {
  for (const v1::TournamentRound& r : t.rounds()) {
    if (r.round() <= round) continue;
    for (const v1::Pairing& p : r.pairings()) {
      if (p.black() != player && p.white() != player) continue;
      if (p.entered_outcome() != v1::Result::OUTCOME_UNSPECIFIED) return true;
      auto g = games.find(p.game_id());
      if (g != games.end() && g->second.result.has_value()) return true;
    }
  }
  return false;
}

}  // namespace

v1::Tournament WithWithdrawalsFromGames(const v1::Tournament& t, const GameFactsMap& games) {
  v1::Tournament out = t;
  // Rounds may be paired out of order; in round order, the first game found
  // is the earliest one the player withdrew in.
  std::vector<const v1::TournamentRound*> rounds;
  for (const v1::TournamentRound& r : t.rounds()) rounds.push_back(&r);
  std::sort(rounds.begin(), rounds.end(),
            [](const auto* a, const auto* b) { return a->round() < b->round(); });
  for (const v1::TournamentRound* r : rounds) {
    for (const v1::Pairing& p : r->pairings()) {
      auto g = games.find(p.game_id());
      if (g == games.end()) continue;
      for (const auto& [player, withdrew] : {std::pair{&p.black(), g->second.withdrew_black},
                                             std::pair{&p.white(), g->second.withdrew_white}}) {
        if (!withdrew || FindWithdrawal(out, *player) != nullptr) continue;
        if (PlayedAfter(t, games, *player, r->round())) continue;  // 部分退出
        v1::PlayerWithdrawn* w = out.add_withdrawals();
        w->set_player(*player);
        w->set_after_round(r->round());
        w->set_note(absl::StrCat("withdrew during game ", p.game_id(), " of round ", r->round(),
                                 " (23.2: the game concerned is lost)"));
      }
    }
  }
  return out;
}

}  // namespace arbiter::tournament
