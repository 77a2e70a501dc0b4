// The arbiter.v1.Arbiter service behind authentication, authorization and
// limits (issue 8; SECURITY.md). Each call is admitted by a Gatekeeper
// (auth_gatekeeper.h: the bearer token, open mode, the role, the rate)
// before it is forwarded to the wrapped ArbiterService; a refused call
// reaches nothing, so nothing is written. Beyond the role table, an ARBITER
// may not decide a ruling whose clause the ruleset leaves to the chief
// arbiter (Ruling.decided_by), through Decide or as an event, nor rule on
// an appeal (16.4). Every event written by a forwarded call (CreateGame,
// AppendEvents, Decide) records the authenticated caller in Event.actor,
// whatever the client put there (empty when the server runs open). Batch
// and message sizes are capped by the ArbiterService and the server
// builder.
#ifndef ARBITER_ADJUDICATOR_SERVICE_AUTH_SERVICE_H_
#define ARBITER_ADJUDICATOR_SERVICE_AUTH_SERVICE_H_

#include <memory>
#include <string>

#include "absl/strings/string_view.h"
#include "adjudicator/service/auth_gatekeeper.h"
#include "adjudicator/service/auth_tokens.h"
#include "arbiter/v1/service.grpc.pb.h"

namespace arbiter::service {

class AuthorizedService final : public v1::Arbiter::Service {
 public:
  // Neither owned; both must outlive this. Admits calls with its own
  // Gatekeeper.
  AuthorizedService(v1::Arbiter::Service* inner, TokenStore* tokens, AuthLimits limits = {});
  // Admits calls with `gate` (not owned), which other services may share.
  AuthorizedService(v1::Arbiter::Service* inner, Gatekeeper* gate);

  // The Gatekeeper admitting this service's calls, for the server's other
  // authenticated services (one set of rate buckets per caller).
  Gatekeeper* gatekeeper() const { return gate_; }

  grpc::Status CreateGame(grpc::ServerContext*, const v1::CreateGameRequest*, v1::Game*) override;
  grpc::Status GetGame(grpc::ServerContext*, const v1::GetGameRequest*, v1::Game*) override;
  grpc::Status AppendEvents(grpc::ServerContext*, const v1::AppendEventsRequest*,
                            v1::AppendEventsResponse*) override;
  grpc::Status ListEvents(grpc::ServerContext*, const v1::ListEventsRequest*,
                          v1::ListEventsResponse*) override;
  grpc::Status ListRulings(grpc::ServerContext*, const v1::ListRulingsRequest*,
                           v1::ListRulingsResponse*) override;
  grpc::Status WatchGame(grpc::ServerContext*, const v1::WatchGameRequest*,
                         grpc::ServerWriter<v1::WatchResponse>*) override;
  grpc::Status WatchAll(grpc::ServerContext*, const v1::WatchAllRequest*,
                        grpc::ServerWriter<v1::WatchResponse>*) override;
  grpc::Status Decide(grpc::ServerContext*, const v1::DecideRequest*,
                      v1::AppendEventsResponse*) override;
  grpc::Status VerifyGame(grpc::ServerContext*, const v1::VerifyGameRequest*,
                          v1::VerifyGameResponse*) override;
  grpc::Status GetCheckpoint(grpc::ServerContext*, const v1::GetCheckpointRequest*,
                             v1::SignedCheckpoint*) override;
  grpc::Status GetInclusionProof(grpc::ServerContext*, const v1::GetInclusionProofRequest*,
                                 v1::InclusionProof*) override;
  grpc::Status ExportGame(grpc::ServerContext*, const v1::ExportGameRequest*,
                          v1::ExportGameResponse*) override;
  grpc::Status GetRuleset(grpc::ServerContext*, const v1::GetRulesetRequest*,
                          v1::RulesetView*) override;
  grpc::Status GetClause(grpc::ServerContext*, const v1::GetClauseRequest*, v1::Clause*) override;

 private:
  // PERMISSION_DENIED when ruling `ruling` of `game` is one the ruleset
  // leaves to the chief arbiter; OK otherwise (or when it is unknown).
  grpc::Status RefuseChiefArbitersRuling(grpc::ServerContext* context, const std::string& game,
                                         uint32_t ruling);
  template <typename Req>
  grpc::Status Watch(grpc::ServerContext* context, absl::string_view method, const Req* req,
                     grpc::ServerWriter<v1::WatchResponse>* writer);

  v1::Arbiter::Service* inner_;
  std::unique_ptr<Gatekeeper> owned_gate_;  // null when the gate is shared
  Gatekeeper* gate_;
};

}  // namespace arbiter::service

#endif  // ARBITER_ADJUDICATOR_SERVICE_AUTH_SERVICE_H_
