#include "adjudicator/service/tournament_referee.h"

#include "absl/strings/str_cat.h"
#include "adjudicator/judge/adjudicator_judge.h"
#include "adjudicator/service/tournament_at.h"
#include "adjudicator/tournament/fold.h"
#include "adjudicator/tournament/recorded_standings.h"
#include "adjudicator/tournament/scoring.h"

namespace arbiter::tournament {

void TournamentReferee::GameAdvanced(const std::string& game_id, const ledger::GameJudge& fold) {
  if (const auto* game = dynamic_cast<const AdjudicatorFold*>(&fold)) {
    games_[game_id] = GameFactsOf(game->adjudicator());
  }
}

std::optional<std::string> TournamentReferee::MissingGame(const v1::Tournament& t,
                                                          int round) const {
  for (const v1::TournamentRound& r : t.rounds()) {
    if (r.round() != round) continue;
    for (const v1::Pairing& p : r.pairings()) {
      if (p.game_id().empty() || games_.contains(p.game_id())) continue;
      return absl::StrCat("tournament '", t.tournament_id(), "' round ", round, " board ",
                          p.board(), ": game '", p.game_id(),
                          "' was started but is not in the log before its start");
    }
  }
  return std::nullopt;
}

std::optional<std::string> TournamentReferee::Apply(const std::string& tournament_id,
                                                    uint64_t revision,
                                                    const v1::TournamentEvent& event) {
  Kept& kept = tournaments_[tournament_id];
  if (event.has_standings_recorded()) {
    if (absl::Status s = CheckRecordedStandings(kept.folded, games_, event.standings_recorded());
        !s.ok()) {
      return absl::StrCat("tournament '", tournament_id, "' round ",
                          event.standings_recorded().round(), " (revision ", revision,
                          "): ", s.message());
    }
  }
  if (absl::Status s = tournament::Apply(event, &kept.folded); !s.ok()) {
    return absl::StrCat("tournament '", tournament_id, "' revision ", revision,
                        " does not fold: ", s.message());
  }
  kept.events.push_back(event);
  if (event.has_round_started()) {
    kept.started.insert(event.round_started().round());
    // Its games are created before it is appended (StartRound).
    return MissingGame(kept.folded, event.round_started().round());
  }
  return std::nullopt;
}

std::optional<std::string> TournamentReferee::Finish() {
  for (const auto& [id, kept] : tournaments_) {
    for (const v1::TournamentRound& r : kept.folded.rounds()) {
      for (const v1::Pairing& p : r.pairings()) {
        auto game = games_.find(p.game_id());
        if (p.game_id().empty() || game == games_.end()) continue;
        if (absl::Status s = CheckRecordedPlayers(kept.folded, p, game->second); !s.ok()) {
          return absl::StrCat("tournament '", id, "' round ", p.round(), " board ", p.board(),
                              ": game '", p.game_id(), "' ", s.message());
        }
      }
      if (kept.started.contains(r.round())) {
        if (std::optional<std::string> why = MissingGame(kept.folded, r.round())) return why;
      }
    }
  }
  return std::nullopt;
}

}  // namespace arbiter::tournament
