// Admission of one gRPC call (issue 8; SECURITY.md): who the caller is,
// whether their role may make the call, and whether their rate allows it.
// Every authenticated service of a server (arbiter.v1.Arbiter,
// arbiter.v1.TournamentService) asks one Gatekeeper, so a caller has one
// set of rate buckets whichever service they call.
//
//  - the caller: "authorization: Bearer <token>" looked up in the
//    TokenStore. While the store has never issued a token the server runs
//    open (the zero-config local default; Server refuses to listen beyond
//    loopback then). Otherwise a missing, unknown, revoked or expired token
//    is UNAUTHENTICATED, and a role that may not make the call (AccessOf,
//    auth_role.h), or an ARBITER recording in a game not assigned to them,
//    is PERMISSION_DENIED.
//  - limits: per caller (token, or peer host when open) token buckets for
//    writes and reads, and a cap on concurrent watch streams, each
//    RESOURCE_EXHAUSTED when exceeded.
//  - the actor: ActingAs sets CurrentActor() for the handler the admitted
//    call is forwarded to, which stamps it on every event it writes.
#ifndef ARBITER_ADJUDICATOR_SERVICE_AUTH_GATEKEEPER_H_
#define ARBITER_ADJUDICATOR_SERVICE_AUTH_GATEKEEPER_H_

#include <optional>
#include <string>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "adjudicator/service/auth_role.h"
#include "adjudicator/service/auth_tokens.h"
#include "grpcpp/server_context.h"
#include "grpcpp/support/status.h"

namespace arbiter::service {

// Per caller: a token, or without one the peer's host, so every anonymous
// client on one machine shares a bucket. A rate of 0 means no limit. The
// defaults leave room for a hall of boards behind one gateway (500 boards
// at a few events a minute each need far less) while stopping a runaway
// client; `arbiter serve --write-rate/--read-rate` changes them.
struct AuthLimits {
  double writes_per_second = 1000;  // creating, recording, deciding, organising
  double write_burst = 2000;
  double reads_per_second = 2000;  // everything else
  double read_burst = 5000;
  int watchers_per_caller = 16;   // concurrent WatchGame/WatchAll streams
};

// An admitted caller.
struct Caller {
  std::string key;           // rate-limit key: token id, or the peer's host
  std::string actor;         // "Li Wei (ARBITER, token 1a2b3c4d)"; empty when open
  std::optional<Role> role;  // none when the server runs open
};

class Gatekeeper {
 public:
  // `tokens` is not owned and must outlive this.
  explicit Gatekeeper(TokenStore* tokens, AuthLimits limits = {});

  // Authenticates and authorizes a call of the full method name `method`
  // ("/arbiter.v1.Arbiter/AppendEvents") on `game` (an ARBITER's record
  // calls; empty otherwise), and charges the caller's rate.
  absl::StatusOr<Caller> Admit(const grpc::ServerContextBase& context, absl::string_view method,
                               absl::string_view game = "");

  // A watch stream opening (RESOURCE_EXHAUSTED beyond the cap) and closing.
  absl::Status OpenWatch(const Caller& caller);
  void CloseWatch(const Caller& caller);

 private:
  struct Bucket {
    double tokens;
    absl::Time refilled;
  };
  bool Take(absl::flat_hash_map<std::string, Bucket>& buckets, const std::string& key,
            double rate, double burst) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  TokenStore* tokens_;
  const AuthLimits limits_;
  absl::Mutex mu_;
  absl::flat_hash_map<std::string, Bucket> writes_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<std::string, Bucket> reads_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<std::string, int> watchers_ ABSL_GUARDED_BY(mu_);
};

// The actor stamped on the events of the call being handled on this thread
// (the services' handlers are synchronous); empty outside an ActingAs.
const std::string& CurrentActor();

// Sets CurrentActor() to `caller.actor` for its lifetime (nests).
class ActingAs {
 public:
  explicit ActingAs(const Caller& caller);
  ~ActingAs();
  ActingAs(const ActingAs&) = delete;
  ActingAs& operator=(const ActingAs&) = delete;

 private:
  const std::string* outer_;
};

inline grpc::Status ToGrpcStatus(const absl::Status& s) {
  return grpc::Status(static_cast<grpc::StatusCode>(s.code()), std::string(s.message()));
}

}  // namespace arbiter::service

#endif  // ARBITER_ADJUDICATOR_SERVICE_AUTH_GATEKEEPER_H_
