#include "adjudicator/service/auth_service.h"

#include <algorithm>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace arbiter::service {
namespace {

thread_local const std::string* current_actor = nullptr;

grpc::Status Refuse(grpc::StatusCode code, std::string message) {
  return grpc::Status(code, std::move(message));
}

grpc::Status ToGrpcStatus(const absl::Status& s) {
  return grpc::Status(static_cast<grpc::StatusCode>(s.code()), std::string(s.message()));
}

// "ipv4:127.0.0.1:5000" -> "ipv4:127.0.0.1": one bucket per host, not per
// connection.
std::string PeerHost(const std::string& peer) {
  const size_t colon = peer.rfind(':');
  return colon == std::string::npos || colon < 5 ? peer : peer.substr(0, colon);
}

// The game a record call names ("games/{id}"), for the ARBITER's
// assignment check; a malformed name matches no assignment, and the service
// refuses it anyway.
std::string GameOf(absl::string_view resource) {
  constexpr absl::string_view kPrefix = "games/";
  return absl::StartsWith(resource, kPrefix) ? std::string(resource.substr(kPrefix.size()))
                                             : std::string();
}

}  // namespace

const std::string& CurrentActor() {
  static const std::string kNone;
  return current_actor != nullptr ? *current_actor : kNone;
}

AuthorizedService::AuthorizedService(v1::Arbiter::Service* inner, TokenStore* tokens,
                                     AuthLimits limits)
    : inner_(inner), tokens_(tokens), limits_(limits) {}

bool AuthorizedService::Take(absl::flat_hash_map<std::string, Bucket>& buckets,
                             const std::string& key, double rate, double burst) {
  if (rate <= 0) return true;  // no limit
  const absl::Time now = absl::Now();
  if (buckets.size() > 10000) {  // forget idle callers, so the map stays bounded
    absl::erase_if(buckets, [&](const auto& kv) {
      return kv.second.tokens + rate * absl::ToDoubleSeconds(now - kv.second.refilled) >= burst;
    });
  }
  auto [it, fresh] = buckets.try_emplace(key, Bucket{burst, now});
  Bucket& b = it->second;
  if (!fresh) {
    b.tokens = std::min(burst, b.tokens + rate * absl::ToDoubleSeconds(now - b.refilled));
    b.refilled = now;
  }
  if (b.tokens < 1) return false;
  b.tokens -= 1;
  return true;
}

absl::StatusOr<AuthorizedService::Caller> AuthorizedService::Admit(grpc::ServerContext* context,
                                                                   absl::string_view method,
                                                                   const std::string& game) {
  const Access access = AccessOf(absl::StrCat("/arbiter.v1.Arbiter/", method));
  Caller caller;
  absl::StatusOr<bool> secured = tokens_->Any();
  if (!secured.ok()) return secured.status();
  if (!*secured) {
    caller.key = PeerHost(context->peer());
  } else {
    const auto& metadata = context->client_metadata();
    auto header = metadata.find("authorization");
    if (header == metadata.end()) {
      return absl::UnauthenticatedError(
          "this server needs a bearer token (authorization: Bearer <token>; "
          "the arbiter CLI sends $ARBITER_TOKEN)");
    }
    const absl::string_view value(header->second.data(), header->second.size());
    constexpr absl::string_view kBearer = "Bearer ";
    if (!absl::StartsWithIgnoreCase(value, "bearer ")) {
      return absl::UnauthenticatedError("the authorization header is not 'Bearer <token>'");
    }
    absl::StatusOr<std::optional<TokenInfo>> token =
        tokens_->Authenticate(value.substr(kBearer.size()));
    if (!token.ok()) return token.status();
    if (!token->has_value()) {
      return absl::UnauthenticatedError("unknown or revoked token");
    }
    const TokenInfo& t = **token;
    if (!Permits(t.role, access)) {
      return absl::PermissionDeniedError(
          absl::StrCat("a ", RoleName(t.role), " token may not call ", method));
    }
    if (access == Access::kRecord && t.role == Role::kArbiter &&
        std::find(t.games.begin(), t.games.end(), "*") == t.games.end() &&
        std::find(t.games.begin(), t.games.end(), game) == t.games.end()) {
      return absl::PermissionDeniedError(
          absl::StrCat("arbiter '", t.name, "' is not assigned to game '", game, "'"));
    }
    caller.key = t.id;
    caller.role = t.role;
    caller.actor = absl::StrCat(t.name, " (", RoleName(t.role), ", token ", t.id, ")");
  }
  absl::MutexLock lock(&mu_);
  const bool write = access == Access::kRecord || access == Access::kCreate;
  if (!(write ? Take(writes_, caller.key, limits_.writes_per_second, limits_.write_burst)
              : Take(reads_, caller.key, limits_.reads_per_second, limits_.read_burst))) {
    return absl::ResourceExhaustedError(
        absl::StrCat("rate limit: at most ", write ? limits_.writes_per_second : limits_.reads_per_second,
                     write ? " writes" : " reads", " per second; retry with backoff"));
  }
  return caller;
}

template <typename F>
grpc::Status AuthorizedService::As(const Caller& caller, F forward) {
  const std::string* outer = current_actor;
  current_actor = &caller.actor;
  grpc::Status s = forward();
  current_actor = outer;
  return s;
}

#define ARBITER_FORWARD(Method, Req, Resp, game)                                       \
  grpc::Status AuthorizedService::Method(grpc::ServerContext* context, const Req* req, \
                                         Resp* out) {                                  \
    absl::StatusOr<Caller> caller = Admit(context, #Method, game);                     \
    if (!caller.ok()) return ToGrpcStatus(caller.status());                            \
    return As(*caller, [&] { return inner_->Method(context, req, out); });             \
  }

ARBITER_FORWARD(CreateGame, v1::CreateGameRequest, v1::Game, "")
ARBITER_FORWARD(GetGame, v1::GetGameRequest, v1::Game, "")
ARBITER_FORWARD(ListEvents, v1::ListEventsRequest, v1::ListEventsResponse, "")
ARBITER_FORWARD(ListRulings, v1::ListRulingsRequest, v1::ListRulingsResponse, "")
ARBITER_FORWARD(VerifyGame, v1::VerifyGameRequest, v1::VerifyGameResponse, "")
ARBITER_FORWARD(GetCheckpoint, v1::GetCheckpointRequest, v1::SignedCheckpoint, "")
ARBITER_FORWARD(GetInclusionProof, v1::GetInclusionProofRequest, v1::InclusionProof, "")
ARBITER_FORWARD(ExportGame, v1::ExportGameRequest, v1::ExportGameResponse, "")
ARBITER_FORWARD(GetRuleset, v1::GetRulesetRequest, v1::RulesetView, "")
ARBITER_FORWARD(GetClause, v1::GetClauseRequest, v1::Clause, "")
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
        return Refuse(grpc::StatusCode::PERMISSION_DENIED,
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
  absl::StatusOr<Caller> caller = Admit(context, "AppendEvents", GameOf(req->game()));
  if (!caller.ok()) return ToGrpcStatus(caller.status());
  if (caller->role == Role::kArbiter) {
    // The same limits as Decide, for decisions sent as events: a chief
    // arbiter's clause, and appeals, which the chief arbiter rules on (16.4).
    for (const v1::Event& e : req->events()) {
      if (e.has_appeal_decided()) {
        return Refuse(grpc::StatusCode::PERMISSION_DENIED,
                      "appeals are the chief arbiter's to decide (16.4)");
      }
      if (e.has_arbiter_decision()) {
        grpc::Status s = RefuseChiefArbitersRuling(context, req->game(), e.arbiter_decision().ruling());
        if (!s.ok()) return s;
      }
    }
  }
  return As(*caller, [&] { return inner_->AppendEvents(context, req, out); });
}

grpc::Status AuthorizedService::Decide(grpc::ServerContext* context, const v1::DecideRequest* req,
                                      v1::AppendEventsResponse* out) {
  absl::StatusOr<Caller> caller = Admit(context, "Decide", GameOf(req->game()));
  if (!caller.ok()) return ToGrpcStatus(caller.status());
  if (caller->role == Role::kArbiter) {
    grpc::Status s = RefuseChiefArbitersRuling(context, req->game(), req->ruling());
    if (!s.ok()) return s;
  }
  return As(*caller, [&] { return inner_->Decide(context, req, out); });
}

template <typename Req>
grpc::Status AuthorizedService::Watch(grpc::ServerContext* context, const std::string& method,
                                      const std::string& game, const Req* req,
                                      grpc::ServerWriter<v1::WatchResponse>* writer) {
  absl::StatusOr<Caller> caller = Admit(context, method, game);
  if (!caller.ok()) return ToGrpcStatus(caller.status());
  {
    absl::MutexLock lock(&mu_);
    int& open = watchers_[caller->key];
    if (open >= limits_.watchers_per_caller) {
      return Refuse(grpc::StatusCode::RESOURCE_EXHAUSTED,
                    absl::StrCat("at most ", limits_.watchers_per_caller,
                                 " watch streams at once per caller"));
    }
    ++open;
  }
  grpc::Status s = As(*caller, [&] {
    if constexpr (std::is_same_v<Req, v1::WatchGameRequest>) {
      return inner_->WatchGame(context, req, writer);
    } else {
      return inner_->WatchAll(context, req, writer);
    }
  });
  absl::MutexLock lock(&mu_);
  if (--watchers_[caller->key] == 0) watchers_.erase(caller->key);
  return s;
}

grpc::Status AuthorizedService::WatchGame(grpc::ServerContext* context,
                                          const v1::WatchGameRequest* req,
                                          grpc::ServerWriter<v1::WatchResponse>* writer) {
  return Watch(context, "WatchGame", "", req, writer);
}

grpc::Status AuthorizedService::WatchAll(grpc::ServerContext* context,
                                         const v1::WatchAllRequest* req,
                                         grpc::ServerWriter<v1::WatchResponse>* writer) {
  return Watch(context, "WatchAll", "", req, writer);
}

}  // namespace arbiter::service
