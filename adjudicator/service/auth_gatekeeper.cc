#include "adjudicator/service/auth_gatekeeper.h"

#include <algorithm>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "adjudicator/service/rate_limited.h"

namespace arbiter::service {
namespace {

// "ipv4:127.0.0.1:5000" -> "ipv4:127.0.0.1": one bucket per host, not per
// connection.
std::string PeerHost(const std::string& peer) {
  const size_t colon = peer.rfind(':');
  return colon == std::string::npos || colon < 5 ? peer : peer.substr(0, colon);
}

// "/arbiter.v1.Arbiter/AppendEvents" -> "AppendEvents", for messages.
absl::string_view ShortName(absl::string_view method) {
  const size_t slash = method.rfind('/');
  return slash == absl::string_view::npos ? method : method.substr(slash + 1);
}

}  // namespace

absl::Status Caller::MayRecordIn(absl::string_view game) const {
  if (role != Role::kArbiter) return absl::OkStatus();
  for (const std::string& g : games) {
    if (g == "*" || g == game) return absl::OkStatus();
  }
  return absl::PermissionDeniedError(
      absl::StrCat("this arbiter's token is not assigned to game '", game, "'"));
}

Gatekeeper::Gatekeeper(TokenStore* tokens, AuthLimits limits)
    : tokens_(tokens),
      limits_(limits),
      watchers_{"watch", limits.watchers_per_caller, limits.watchers_in_all},
      recorders_{"RecordEvents", limits.recorders_per_caller, limits.recorders_in_all},
      reflections_{"reflection", limits.reflections_per_caller, limits.reflections_in_all} {}

absl::Duration Gatekeeper::Take(absl::flat_hash_map<std::string, Bucket>& buckets,
                                const std::string& key, double rate, double burst) {
  if (rate <= 0) return absl::ZeroDuration();  // no limit
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
  if (b.tokens < 1) {
    // A bucket that never holds a whole call admits none, ever.
    return burst < 1 ? absl::InfiniteDuration() : absl::Seconds((1 - b.tokens) / rate);
  }
  b.tokens -= 1;
  return absl::ZeroDuration();
}

absl::StatusOr<Caller> Gatekeeper::Admit(absl::string_view method,
                                         std::optional<absl::string_view> authorization,
                                         absl::string_view peer) {
  return AdmitWith(method, peer, [&] { return Bearer(authorization); });
}

absl::StatusOr<Caller> Gatekeeper::Admit(absl::string_view method,
                                         absl::Span<const absl::string_view> authorizations,
                                         absl::string_view peer) {
  if (authorizations.size() <= 1) {
    return Admit(method,
                 authorizations.empty() ? std::nullopt : std::optional(authorizations.front()),
                 peer);
  }
  // Refused as a bad token is, and charged the same (to the peer host).
  return AdmitWith(method, peer, [&]() -> absl::StatusOr<TokenInfo> {
    return absl::UnauthenticatedError(
        absl::StrCat("the call carries ", authorizations.size(),
                     " authorization headers; send one (authorization: Bearer <token>)"));
  });
}

absl::Status Gatekeeper::StillAdmits(absl::string_view method,
                                     std::optional<absl::string_view> authorization,
                                     absl::string_view peer) {
  return AdmitWith(
             method, peer, [&] { return Bearer(authorization); }, /*charge=*/false)
      .status();
}

absl::StatusOr<TokenInfo> Gatekeeper::Bearer(std::optional<absl::string_view> authorization) {
  if (!authorization.has_value()) {
    return absl::UnauthenticatedError(
        "this server needs a bearer token (authorization: Bearer <token>; "
        "the arbiter CLI sends $ARBITER_TOKEN)");
  }
  constexpr absl::string_view kBearer = "Bearer ";
  if (!absl::StartsWithIgnoreCase(*authorization, kBearer)) {
    return absl::UnauthenticatedError("the authorization header is not 'Bearer <token>'");
  }
  // UNAUTHENTICATED (unknown, revoked, expired) or a storage error.
  return tokens_->Verify(authorization->substr(kBearer.size()));
}

absl::StatusOr<Caller> Gatekeeper::AdmitSession(absl::string_view method,
                                                const std::optional<std::string>& token_id,
                                                absl::string_view peer) {
  return AdmitWith(method, peer, [&]() -> absl::StatusOr<TokenInfo> {
    if (!token_id.has_value()) {
      return absl::UnauthenticatedError("sign in with a token first (/login)");
    }
    return tokens_->VerifyId(*token_id);
  });
}

absl::StatusOr<Caller> Gatekeeper::AdmitWith(absl::string_view method, absl::string_view peer,
                                             absl::FunctionRef<absl::StatusOr<TokenInfo>()> lookup,
                                             bool charge) {
  const v1::Access access = MethodAccess(method);
  if (access == v1::ACCESS_UNSPECIFIED) {
    return absl::PermissionDeniedError(absl::StrCat(method, " is not a method this server admits"));
  }
  Caller caller;
  absl::StatusOr<bool> secured = tokens_->Any();
  if (!secured.ok()) return secured.status();
  if (*secured && access != v1::PUBLIC) {
    absl::StatusOr<TokenInfo> token = lookup();
    // A refused call costs a token look-up too: it is charged to the read
    // rate of whoever made it (the peer host without a token, the token
    // otherwise), so that refusals cannot be had at full speed.
    if (absl::IsUnauthenticated(token.status())) {
      return ChargeRefusal(Caller{.key = PeerHost(std::string(peer))}, token.status(), charge);
    }
    if (!token.ok()) return token.status();
    if (!Permits(token->role, access)) {
      return ChargeRefusal(
          Caller{.key = token->id},
          absl::PermissionDeniedError(absl::StrCat(RoleWithArticle(token->role),
                                                   " token may not call ", ShortName(method))),
          charge);
    }
    caller.key = token->id;
    caller.role = token->role;
    caller.games = token->games;
    caller.actor = ActorOf(token->name, token->role, token->id);
  } else {
    caller.key = PeerHost(std::string(peer));
  }
  if (charge) {
    if (absl::Status s = Charge(caller, access); !s.ok()) return s;
  }
  return caller;
}

absl::Status Gatekeeper::ChargeRefusal(const Caller& caller, absl::Status refusal, bool charge) {
  if (!charge) return refusal;
  if (absl::Status s = Charge(caller, v1::READ); !s.ok()) return s;
  return refusal;
}

absl::Status Gatekeeper::Charge(const Caller& caller, v1::Access access) {
  const bool write = IsWrite(access);
  absl::MutexLock lock(&mu_);
  const absl::Duration wait =
      write ? Take(writes_, caller.key, limits_.writes_per_second, limits_.write_burst)
            : Take(reads_, caller.key, limits_.reads_per_second, limits_.read_burst);
  if (wait == absl::ZeroDuration()) return absl::OkStatus();
  return RateLimited(absl::StrCat("rate limit: at most ",
                                  write ? limits_.writes_per_second : limits_.reads_per_second,
                                  write ? " writes" : " reads", " per second"),
                     wait);
}

absl::Status Gatekeeper::OpenStream(const Caller& caller, StreamKind kind) {
  absl::MutexLock lock(&mu_);
  OpenStreams& streams = Streams(kind);
  int& open = streams.by_caller[caller.key];
  if (open >= streams.per_caller_cap || streams.in_all >= streams.in_all_cap) {
    const bool mine = open >= streams.per_caller_cap;
    if (open == 0) streams.by_caller.erase(caller.key);
    return absl::ResourceExhaustedError(
        mine ? absl::StrCat("at most ", streams.per_caller_cap, " ", streams.what,
                            streams.per_caller_cap == 1 ? " stream" : " streams",
                            " at once per caller")
             : absl::StrCat("at most ", streams.in_all_cap, " ", streams.what,
                            streams.in_all_cap == 1 ? " stream" : " streams",
                            " at once on this server"));
  }
  ++open;
  ++streams.in_all;
  return absl::OkStatus();
}

void Gatekeeper::CloseStream(const Caller& caller, StreamKind kind) {
  absl::MutexLock lock(&mu_);
  OpenStreams& streams = Streams(kind);
  auto it = streams.by_caller.find(caller.key);
  if (it == streams.by_caller.end()) return;
  --streams.in_all;
  if (--it->second <= 0) streams.by_caller.erase(it);
}

}  // namespace arbiter::service
