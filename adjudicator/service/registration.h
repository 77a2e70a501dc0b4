// Plugging the TournamentService into a gRPC server beside arbiter.v1.Arbiter:
//
//   absl::StatusOr<std::unique_ptr<TournamentHost>> host =
//       RegisterTournamentService(builder, ledger, options.data_dir, location, folds, callers,
//                                 make_game);
//
// before builder.BuildAndStart(), keeping `host` alive as long as the server.
// Its calls are admitted by the server's one authorization interceptor, like
// every other; game results and rulings come from the games' read model
// (game_folds.h), never recomputed.
#ifndef ARBITER_ADJUDICATOR_SERVICE_REGISTRATION_H_
#define ARBITER_ADJUDICATOR_SERVICE_REGISTRATION_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "adjudicator/service/auth_interceptor.h"
#include "adjudicator/service/game_folds.h"
#include "adjudicator/service/standings_recorder.h"
#include "adjudicator/service/tournament_service.h"
#include "adjudicator/service/tournament_store.h"
#include "grpcpp/server_builder.h"

namespace arbiter::tournament {

// The store, the service and the recorder of standings, owned together.
// The server starts `standings` once it serves and stops it before the
// ledger closes.
struct TournamentHost {
  std::unique_ptr<TournamentStore> store;
  std::unique_ptr<TournamentServiceImpl> service;
  std::unique_ptr<StandingsRecorder> standings;
};

// A game's facts from the read model: its result, the WARNING sanctions per
// colour, the deciding ruling and the players it was created with.
GameSource GamesFrom(service::GameFolds* folds);

// Opens the tournaments of `ledger` (moving those of `data_dir`/tournaments.db,
// of an earlier release, into it first: tournament_migration.h) and
// registers the service on `builder`. `location` is the ledger's (a data
// folder or a PostgreSQL URI): a tournament a venue synced there is kept
// the venue's (TournamentStore::Append). `ledger`, `folds` and `callers` are
// not owned and must outlive the host; `make_game` creates the games
// StartRound starts (the server's Recorder).
absl::StatusOr<std::unique_ptr<TournamentHost>> RegisterTournamentService(
    grpc::ServerBuilder& builder, ledger::Ledger* ledger, const std::string& data_dir,
    const std::string& location, service::GameFolds* folds, const service::Callers* callers,
    GameMaker make_game);

}  // namespace arbiter::tournament

#endif  // ARBITER_ADJUDICATOR_SERVICE_REGISTRATION_H_
