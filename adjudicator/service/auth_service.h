// The arbiter.v1 service behind authentication, authorization and limits
// (issue 8; SECURITY.md). It wraps the ArbiterService and admits each call
// before forwarding it:
//
//  - the caller: "authorization: Bearer <token>" looked up in the
//    TokenStore. While the store has never issued a token the server runs
//    open (the zero-config local default; Server refuses to listen beyond
//    loopback then). Otherwise a missing, unknown or revoked token is
//    UNAUTHENTICATED, and a role that may not make the call (auth_role.h),
//    an ARBITER recording in a game not assigned to them, or deciding a
//    ruling whose clause the ruleset leaves to the chief arbiter
//    (Ruling.decided_by), is PERMISSION_DENIED. A refused call reaches
//    nothing: nothing is written.
//  - the actor: every event written by the call (CreateGame, AppendEvents,
//    Decide) records the authenticated caller in Event.actor, whatever the
//    client put there (empty when the server runs open).
//  - limits: per caller (token, or peer address when open) token buckets
//    for writes and reads, and a cap on concurrent watch streams, each
//    RESOURCE_EXHAUSTED when exceeded. Batch and message sizes are capped
//    by the ArbiterService and the server builder.
#ifndef ARBITER_ADJUDICATOR_SERVICE_AUTH_SERVICE_H_
#define ARBITER_ADJUDICATOR_SERVICE_AUTH_SERVICE_H_

#include <optional>
#include <string>


#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "adjudicator/service/auth_role.h"
#include "adjudicator/service/auth_tokens.h"
#include "arbiter/v1/service.grpc.pb.h"

namespace arbiter::service {

// Per caller: a token, or without one the peer's host, so every anonymous
// client on one machine shares a bucket. A rate of 0 means no limit. The
// defaults leave room for a hall of boards behind one gateway (500 boards
// at a few events a minute each need far less) while stopping a runaway
// client; `arbiter serve --write-rate/--read-rate` changes them.
struct AuthLimits {
  double writes_per_second = 1000;  // CreateGame, AppendEvents, Decide
  double write_burst = 2000;
  double reads_per_second = 2000;  // everything else
  double read_burst = 5000;
  int watchers_per_caller = 16;   // concurrent WatchGame/WatchAll streams
};

// The actor stamped on the events of the call being handled on this thread
// (the service's handlers are synchronous): set by AuthorizedService around
// each forwarded call, read by ArbiterService when it writes events.
const std::string& CurrentActor();

class AuthorizedService final : public v1::Arbiter::Service {
 public:
  // Neither owned; both must outlive this.
  AuthorizedService(v1::Arbiter::Service* inner, TokenStore* tokens, AuthLimits limits = {});

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
  struct Caller {
    std::string key;    // rate-limit key: token id, or the peer's address
    std::string actor;  // empty when the server runs open
    std::optional<Role> role;  // none when the server runs open
  };
  struct Bucket {
    double tokens;
    absl::Time refilled;
  };

  // Authenticates and authorizes a call of `method` (its short name) on
  // `game` (empty: not a per-game call), and charges its rate limit.
  absl::StatusOr<Caller> Admit(grpc::ServerContext* context, absl::string_view method,
                               const std::string& game);
  bool Take(absl::flat_hash_map<std::string, Bucket>& buckets, const std::string& key,
            double rate, double burst) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // PERMISSION_DENIED when ruling `ruling` of `game` is one the ruleset
  // leaves to the chief arbiter; OK otherwise (or when it is unknown).
  grpc::Status RefuseChiefArbitersRuling(grpc::ServerContext* context, const std::string& game,
                                         uint32_t ruling);
  // Runs `forward` with CurrentActor() set to `caller.actor`.
  template <typename F>
  grpc::Status As(const Caller& caller, F forward);
  template <typename Req>
  grpc::Status Watch(grpc::ServerContext* context, const std::string& method,
                     const std::string& game, const Req* req,
                     grpc::ServerWriter<v1::WatchResponse>* writer);

  v1::Arbiter::Service* inner_;
  TokenStore* tokens_;
  const AuthLimits limits_;
  absl::Mutex mu_;
  absl::flat_hash_map<std::string, Bucket> writes_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<std::string, Bucket> reads_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<std::string, int> watchers_ ABSL_GUARDED_BY(mu_);
};

}  // namespace arbiter::service

#endif  // ARBITER_ADJUDICATOR_SERVICE_AUTH_SERVICE_H_
