#include "adjudicator/service/auth_tournament.h"

namespace arbiter::service {

AuthorizedTournamentService::AuthorizedTournamentService(v1::TournamentService::Service* inner,
                                                         Gatekeeper* gate)
    : inner_(inner), gate_(gate) {}

// The method's full name is what AccessOf looks up; no tournament call is
// per game, so an ARBITER's assignment never enters.
#define ARBITER_FORWARD(Method, Req, Resp)                                                  \
  grpc::Status AuthorizedTournamentService::Method(grpc::ServerContext* context,            \
                                                   const Req* req, Resp* out) {             \
    absl::StatusOr<Caller> caller =                                                         \
        gate_->Admit(*context, "/arbiter.v1.TournamentService/" #Method);                   \
    if (!caller.ok()) return ToGrpcStatus(caller.status());                                 \
    ActingAs acting(*caller);                                                               \
    return inner_->Method(context, req, out);                                               \
  }

ARBITER_FORWARD(CreateTournament, v1::CreateTournamentRequest, v1::Tournament)
ARBITER_FORWARD(ImportTournament, v1::ImportTournamentRequest, v1::Tournament)
ARBITER_FORWARD(GetTournament, v1::GetTournamentRequest, v1::Tournament)
ARBITER_FORWARD(AddPlayers, v1::AddPlayersRequest, v1::Tournament)
ARBITER_FORWARD(PairRound, v1::PairRoundRequest, v1::Tournament)
ARBITER_FORWARD(ScheduleReplay, v1::ScheduleReplayRequest, v1::Tournament)
ARBITER_FORWARD(WithdrawPlayer, v1::WithdrawPlayerRequest, v1::Tournament)
ARBITER_FORWARD(DecideTieBreak, v1::DecideTieBreakRequest, v1::Tournament)
ARBITER_FORWARD(GetStandings, v1::GetStandingsRequest, v1::StandingsReport)
ARBITER_FORWARD(ExportTournament, v1::ExportTournamentRequest, v1::ExportTournamentResponse)
#undef ARBITER_FORWARD

}  // namespace arbiter::service
