#include "adjudicator/service/registration.h"

#include <utility>

#include "adjudicator/service/tournament_at.h"

namespace arbiter::tournament {

GameSource GamesFrom(service::GameFolds* folds) {
  return [folds](const std::string& game_id) -> absl::StatusOr<GameFacts> {
    absl::StatusOr<service::GameView> view = folds->Get(game_id);
    if (!view.ok()) return view.status();
    return GameFactsOf(view->game());
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
  host->standings = std::make_unique<StandingsRecorder>(ledger, folds, host->store.get());
  return host;
}

}  // namespace arbiter::tournament
