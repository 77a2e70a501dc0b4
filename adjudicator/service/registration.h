// Plugging the TournamentService into a gRPC server beside arbiter.v1.Arbiter:
//
//   absl::StatusOr<std::unique_ptr<TournamentHost>> host =
//       RegisterTournamentService(builder, options.data_dir, arbiter_service, gate);
//
// before builder.BuildAndStart(), keeping `host` alive as long as the server.
// Clients reach it through `gate`, the Gatekeeper of the server's
// AuthorizedService (service/auth_tournament.h): the same tokens, roles and
// rate buckets as arbiter.v1.Arbiter.
// Game results and rulings are read in process from the Arbiter service's
// read model (GetGame, ListRulings), never recomputed.
#ifndef ARBITER_ADJUDICATOR_SERVICE_REGISTRATION_H_
#define ARBITER_ADJUDICATOR_SERVICE_REGISTRATION_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "adjudicator/service/auth_gatekeeper.h"
#include "adjudicator/service/auth_tournament.h"
#include "adjudicator/service/tournament_service.h"
#include "adjudicator/service/tournament_store.h"
#include "arbiter/v1/service.grpc.pb.h"
#include "grpcpp/server_builder.h"

namespace arbiter::tournament {

// The store, the service and its authorizing wrapper, owned together.
struct TournamentHost {
  std::unique_ptr<TournamentStore> store;
  std::unique_ptr<TournamentServiceImpl> service;
  std::unique_ptr<service::AuthorizedTournamentService> authorized;  // what clients reach
};

// A game's facts from an Arbiter service: its result (GetGame), the WARNING
// sanctions per colour and the deciding ruling (ListRulings).
GameSource GamesFrom(v1::Arbiter::Service* arbiter);

// Opens `data_dir`/tournaments.db and registers the service, behind `gate`
// (not owned; it must outlive the host), on `builder`.
absl::StatusOr<std::unique_ptr<TournamentHost>> RegisterTournamentService(grpc::ServerBuilder& builder,
                                                                          const std::string& data_dir,
                                                                          v1::Arbiter::Service* arbiter,
                                                                          service::Gatekeeper* gate);

}  // namespace arbiter::tournament

#endif  // ARBITER_ADJUDICATOR_SERVICE_REGISTRATION_H_
