#include "adjudicator/service/registration.h"

#include <utility>

namespace arbiter::tournament {

GameSource GamesFrom(service::GameFolds* folds) {
  return [folds](const std::string& game_id) -> absl::StatusOr<GameFacts> {
    absl::StatusOr<service::GameView> view = folds->Get(game_id);
    if (!view.ok()) return view.status();
    const Adjudicator& game = view->game();
    GameFacts facts;
    if (game.cancelled()) {
      facts.cancelled = game.cancel_reason();  // nothing else of it counts
      return facts;
    }
    if (game.result() != nullptr) facts.result = *game.result();
    const google::protobuf::RepeatedPtrField<v1::Ruling> rulings(game.rulings().begin(),
                                                                 game.rulings().end());
    CountWarnings(rulings, &facts);
    // Who the game was created with, for the pairing's check (scoring.h).
    facts.recorded_black = game.game().black().name();
    facts.recorded_white = game.game().white().name();
    facts.withdrew_black = game.withdrew(v1::BLACK);
    facts.withdrew_white = game.withdrew(v1::WHITE);
    if (facts.result.has_value()) {
      for (const v1::Ruling& r : game.rulings()) {
        if (r.number() == facts.result->ruling()) facts.deciding_ruling = r;
      }
    }
    return facts;
  };
}

absl::StatusOr<std::unique_ptr<TournamentHost>> RegisterTournamentService(
    grpc::ServerBuilder& builder, ledger::Ledger* ledger, const std::string& data_dir,
    const std::string& location, service::GameFolds* folds, const service::Callers* callers,
    GameMaker make_game) {
  auto host = std::make_unique<TournamentHost>();
  absl::StatusOr<std::unique_ptr<TournamentStore>> store =
      TournamentStore::Open(ledger, data_dir, location);
  if (!store.ok()) return store.status();
  host->store = *std::move(store);
  host->service = std::make_unique<TournamentServiceImpl>(
      host->store.get(), GamesFrom(folds), callers, [] { return absl::Now(); },
      std::move(make_game));
  builder.RegisterService(host->service.get());
  return host;
}

}  // namespace arbiter::tournament
