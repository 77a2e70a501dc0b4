#include "adjudicator/service/auth_service.h"

#include <type_traits>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace arbiter::service {
namespace {

constexpr absl::string_view kService = "/arbiter.v1.Arbiter/";

std::string MethodName(absl::string_view method) { return absl::StrCat(kService, method); }

// The game a record call names ("games/{id}"), for the ARBITER's
// assignment check; a malformed name matches no assignment, and the service
// refuses it anyway.
std::string GameOf(absl::string_view resource) {
  constexpr absl::string_view kPrefix = "games/";
  return absl::StartsWith(resource, kPrefix) ? std::string(resource.substr(kPrefix.size()))
                                             : std::string();
}

}  // namespace

AuthorizedService::AuthorizedService(v1::Arbiter::Service* inner, TokenStore* tokens,
                                     AuthLimits limits)
    : inner_(inner),
      owned_gate_(std::make_unique<Gatekeeper>(tokens, limits)),
      gate_(owned_gate_.get()) {}

AuthorizedService::AuthorizedService(v1::Arbiter::Service* inner, Gatekeeper* gate)
    : inner_(inner), gate_(gate) {}

#define ARBITER_FORWARD(Method, Req, Resp)                                             \
  grpc::Status AuthorizedService::Method(grpc::ServerContext* context, const Req* req, \
                                         Resp* out) {                                  \
    absl::StatusOr<Caller> caller = gate_->Admit(*context, MethodName(#Method));       \
    if (!caller.ok()) return ToGrpcStatus(caller.status());                            \
    ActingAs acting(*caller);                                                          \
    return inner_->Method(context, req, out);                                          \
  }

ARBITER_FORWARD(CreateGame, v1::CreateGameRequest, v1::Game)
ARBITER_FORWARD(GetGame, v1::GetGameRequest, v1::Game)
ARBITER_FORWARD(ListEvents, v1::ListEventsRequest, v1::ListEventsResponse)
ARBITER_FORWARD(ListRulings, v1::ListRulingsRequest, v1::ListRulingsResponse)
ARBITER_FORWARD(VerifyGame, v1::VerifyGameRequest, v1::VerifyGameResponse)
ARBITER_FORWARD(GetCheckpoint, v1::GetCheckpointRequest, v1::SignedCheckpoint)
ARBITER_FORWARD(GetInclusionProof, v1::GetInclusionProofRequest, v1::InclusionProof)
ARBITER_FORWARD(ExportGame, v1::ExportGameRequest, v1::ExportGameResponse)
ARBITER_FORWARD(GetRuleset, v1::GetRulesetRequest, v1::RulesetView)
ARBITER_FORWARD(GetClause, v1::GetClauseRequest, v1::Clause)
#undef ARBITER_FORWARD

grpc::Status AuthorizedService::RefuseChiefArbitersRuling(grpc::ServerContext* context,
                                                          const std::string& game,
                                                          uint32_t ruling) {
  // A clause the ruleset leaves to the chief arbiter (its pending ruling's
  // decidedBy) is not an arbiter's to decide. An unknown game or ruling
  // falls through to the service, which says so.
  v1::ListRulingsRequest list;
  list.set_game(game);
  list.set_page_size(1000);
  while (true) {
    v1::ListRulingsResponse page;
    if (!inner_->ListRulings(context, &list, &page).ok()) break;
    for (const v1::Ruling& r : page.rulings()) {
      if (r.number() == ruling && r.decided_by() == v1::CHIEF_ARBITER) {
        return grpc::Status(grpc::StatusCode::PERMISSION_DENIED,
                            absl::StrCat("ruling ", r.number(), " (", r.clause(),
                                         ") is the chief arbiter's to decide"));
      }
    }
    if (page.next_page_token().empty()) break;
    list.set_page_token(page.next_page_token());
  }
  return grpc::Status::OK;
}

grpc::Status AuthorizedService::AppendEvents(grpc::ServerContext* context,
                                            const v1::AppendEventsRequest* req,
                                            v1::AppendEventsResponse* out) {
  absl::StatusOr<Caller> caller =
      gate_->Admit(*context, MethodName("AppendEvents"), GameOf(req->game()));
  if (!caller.ok()) return ToGrpcStatus(caller.status());
  if (caller->role == Role::kArbiter) {
    // The same limits as Decide, for decisions sent as events: a chief
    // arbiter's clause, and appeals, which the chief arbiter rules on (16.4).
    for (const v1::Event& e : req->events()) {
      if (e.has_appeal_decided()) {
        return grpc::Status(grpc::StatusCode::PERMISSION_DENIED,
                            "appeals are the chief arbiter's to decide (16.4)");
      }
      if (e.has_arbiter_decision()) {
        grpc::Status s =
            RefuseChiefArbitersRuling(context, req->game(), e.arbiter_decision().ruling());
        if (!s.ok()) return s;
      }
    }
  }
  ActingAs acting(*caller);
  return inner_->AppendEvents(context, req, out);
}

grpc::Status AuthorizedService::Decide(grpc::ServerContext* context, const v1::DecideRequest* req,
                                      v1::AppendEventsResponse* out) {
  absl::StatusOr<Caller> caller = gate_->Admit(*context, MethodName("Decide"), GameOf(req->game()));
  if (!caller.ok()) return ToGrpcStatus(caller.status());
  if (caller->role == Role::kArbiter) {
    grpc::Status s = RefuseChiefArbitersRuling(context, req->game(), req->ruling());
    if (!s.ok()) return s;
  }
  ActingAs acting(*caller);
  return inner_->Decide(context, req, out);
}

template <typename Req>
grpc::Status AuthorizedService::Watch(grpc::ServerContext* context, absl::string_view method,
                                      const Req* req,
                                      grpc::ServerWriter<v1::WatchResponse>* writer) {
  absl::StatusOr<Caller> caller = gate_->Admit(*context, MethodName(method));
  if (!caller.ok()) return ToGrpcStatus(caller.status());
  if (absl::Status s = gate_->OpenWatch(*caller); !s.ok()) return ToGrpcStatus(s);
  grpc::Status s;
  {
    ActingAs acting(*caller);
    if constexpr (std::is_same_v<Req, v1::WatchGameRequest>) {
      s = inner_->WatchGame(context, req, writer);
    } else {
      s = inner_->WatchAll(context, req, writer);
    }
  }
  gate_->CloseWatch(*caller);
  return s;
}

grpc::Status AuthorizedService::WatchGame(grpc::ServerContext* context,
                                          const v1::WatchGameRequest* req,
                                          grpc::ServerWriter<v1::WatchResponse>* writer) {
  return Watch(context, "WatchGame", req, writer);
}

grpc::Status AuthorizedService::WatchAll(grpc::ServerContext* context,
                                         const v1::WatchAllRequest* req,
                                         grpc::ServerWriter<v1::WatchResponse>* writer) {
  return Watch(context, "WatchAll", req, writer);
}

}  // namespace arbiter::service
