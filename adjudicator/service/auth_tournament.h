// arbiter.v1.TournamentService behind the same authentication, roles and
// rate limits as arbiter.v1.Arbiter (issue 8; SECURITY.md): each call is
// admitted by the server's Gatekeeper before it is forwarded, so a refused
// call writes nothing. Who may call what is AccessOf (auth_role.h): the
// organiser's writes (creating, importing, players, pairings, replays,
// withdrawals, tie-breaks) are the chief arbiter's; standings, exports and
// the tournament itself are readable by every role. Every tournament event
// a forwarded call writes records the authenticated caller in
// TournamentEvent.actor (CurrentActor(); empty when the server runs open).
#ifndef ARBITER_ADJUDICATOR_SERVICE_AUTH_TOURNAMENT_H_
#define ARBITER_ADJUDICATOR_SERVICE_AUTH_TOURNAMENT_H_

#include "adjudicator/service/auth_gatekeeper.h"
#include "arbiter/v1/tournament.grpc.pb.h"

namespace arbiter::service {

class AuthorizedTournamentService final : public v1::TournamentService::Service {
 public:
  // Neither owned; both must outlive this.
  AuthorizedTournamentService(v1::TournamentService::Service* inner, Gatekeeper* gate);

  grpc::Status CreateTournament(grpc::ServerContext*, const v1::CreateTournamentRequest*,
                                v1::Tournament*) override;
  grpc::Status ImportTournament(grpc::ServerContext*, const v1::ImportTournamentRequest*,
                                v1::Tournament*) override;
  grpc::Status GetTournament(grpc::ServerContext*, const v1::GetTournamentRequest*,
                             v1::Tournament*) override;
  grpc::Status AddPlayers(grpc::ServerContext*, const v1::AddPlayersRequest*,
                          v1::Tournament*) override;
  grpc::Status PairRound(grpc::ServerContext*, const v1::PairRoundRequest*,
                         v1::Tournament*) override;
  grpc::Status ScheduleReplay(grpc::ServerContext*, const v1::ScheduleReplayRequest*,
                              v1::Tournament*) override;
  grpc::Status WithdrawPlayer(grpc::ServerContext*, const v1::WithdrawPlayerRequest*,
                              v1::Tournament*) override;
  grpc::Status DecideTieBreak(grpc::ServerContext*, const v1::DecideTieBreakRequest*,
                              v1::Tournament*) override;
  grpc::Status GetStandings(grpc::ServerContext*, const v1::GetStandingsRequest*,
                            v1::StandingsReport*) override;
  grpc::Status ExportTournament(grpc::ServerContext*, const v1::ExportTournamentRequest*,
                                v1::ExportTournamentResponse*) override;

 private:
  v1::TournamentService::Service* inner_;
  Gatekeeper* gate_;
};

}  // namespace arbiter::service

#endif  // ARBITER_ADJUDICATOR_SERVICE_AUTH_TOURNAMENT_H_
