#include "adjudicator/service/auth_gatekeeper.h"

#include <algorithm>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace arbiter::service {
namespace {

thread_local const std::string* current_actor = nullptr;

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

bool AssignedTo(const TokenInfo& t, absl::string_view game) {
  return std::any_of(t.games.begin(), t.games.end(),
                     [&](const std::string& g) { return g == "*" || g == game; });
}

}  // namespace

const std::string& CurrentActor() {
  static const std::string kNone;
  return current_actor != nullptr ? *current_actor : kNone;
}

ActingAs::ActingAs(const Caller& caller) : outer_(current_actor) { current_actor = &caller.actor; }

ActingAs::~ActingAs() { current_actor = outer_; }

Gatekeeper::Gatekeeper(TokenStore* tokens, AuthLimits limits) : tokens_(tokens), limits_(limits) {}

bool Gatekeeper::Take(absl::flat_hash_map<std::string, Bucket>& buckets, const std::string& key,
                      double rate, double burst) {
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

absl::StatusOr<Caller> Gatekeeper::Admit(const grpc::ServerContextBase& context,
                                         absl::string_view method, absl::string_view game) {
  const Access access = AccessOf(method);
  Caller caller;
  absl::StatusOr<bool> secured = tokens_->Any();
  if (!secured.ok()) return secured.status();
  if (!*secured) {
    if (access == Access::kUnknown) {
      return absl::PermissionDeniedError(absl::StrCat(method, " is not a method this server admits"));
    }
    caller.key = PeerHost(context.peer());
  } else {
    const auto& metadata = context.client_metadata();
    auto header = metadata.find("authorization");
    if (header == metadata.end()) {
      return absl::UnauthenticatedError(
          "this server needs a bearer token (authorization: Bearer <token>; "
          "the arbiter CLI sends $ARBITER_TOKEN)");
    }
    const absl::string_view value(header->second.data(), header->second.size());
    constexpr absl::string_view kBearer = "Bearer ";
    if (!absl::StartsWithIgnoreCase(value, kBearer)) {
      return absl::UnauthenticatedError("the authorization header is not 'Bearer <token>'");
    }
    // UNAUTHENTICATED (unknown, revoked, expired) or a storage error.
    absl::StatusOr<TokenInfo> token = tokens_->Verify(value.substr(kBearer.size()));
    if (!token.ok()) return token.status();
    if (!Permits(token->role, access)) {
      return absl::PermissionDeniedError(
          absl::StrCat("a ", RoleName(token->role), " token may not call ", ShortName(method)));
    }
    if (access == Access::kRecord && token->role == Role::kArbiter && !AssignedTo(*token, game)) {
      return absl::PermissionDeniedError(
          absl::StrCat("arbiter '", token->name, "' is not assigned to game '", game, "'"));
    }
    caller.key = token->id;
    caller.role = token->role;
    caller.actor = absl::StrCat(token->name, " (", RoleName(token->role), ", token ", token->id, ")");
  }
  const bool write = IsWrite(access);
  absl::MutexLock lock(&mu_);
  if (!(write ? Take(writes_, caller.key, limits_.writes_per_second, limits_.write_burst)
              : Take(reads_, caller.key, limits_.reads_per_second, limits_.read_burst))) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "rate limit: at most ", write ? limits_.writes_per_second : limits_.reads_per_second,
        write ? " writes" : " reads", " per second; retry with backoff"));
  }
  return caller;
}

absl::Status Gatekeeper::OpenWatch(const Caller& caller) {
  absl::MutexLock lock(&mu_);
  int& open = watchers_[caller.key];
  if (open >= limits_.watchers_per_caller) {
    if (open == 0) watchers_.erase(caller.key);
    return absl::ResourceExhaustedError(
        absl::StrCat("at most ", limits_.watchers_per_caller, " watch streams at once per caller"));
  }
  ++open;
  return absl::OkStatus();
}

void Gatekeeper::CloseWatch(const Caller& caller) {
  absl::MutexLock lock(&mu_);
  auto it = watchers_.find(caller.key);
  if (it != watchers_.end() && --it->second <= 0) watchers_.erase(it);
}

}  // namespace arbiter::service
