// Admission of one gRPC call (SECURITY.md): who the caller is, whether
// their role may make the call, and whether their rate allows it. The
// server's authorization interceptor (auth_interceptor.h) asks it once per
// call, for every service, so a caller has one set of rate buckets whichever
// service they call.
//
//  - the caller: "authorization: Bearer <token>" looked up in the
//    TokenStore. While the store has never issued a token the server runs
//    open (the zero-config local default; Server refuses to listen beyond
//    loopback then). Otherwise a missing, unknown, revoked or expired token
//    is UNAUTHENTICATED, and a role that does not hold the method's access
//    (MethodAccess, auth_role.h), or an ARBITER recording in a game not
//    assigned to them, is PERMISSION_DENIED.
//  - limits: per caller (token, or peer host when open) token buckets for
//    writes and reads, and caps on concurrent watch streams and on
//    concurrent RecordEvents streams (per caller and on the whole server),
//    each RESOURCE_EXHAUSTED when exceeded.
#ifndef ARBITER_ADJUDICATOR_SERVICE_AUTH_GATEKEEPER_H_
#define ARBITER_ADJUDICATOR_SERVICE_AUTH_GATEKEEPER_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "absl/types/span.h"
#include "adjudicator/service/auth_role.h"
#include "adjudicator/service/auth_tokens.h"

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
  // Concurrent WatchGame/WatchAll streams (`arbiter serve --watchers-per-caller`):
  // tournament software following every board of a hall, or the spectators
  // behind one gateway (one host, one caller without tokens).
  int watchers_per_caller = 1024;
  // All callers together (`arbiter serve --watchers`): what bounds the memory
  // watchers can hold. A stream holds no thread and no buffer of its own
  // beyond a read batch and the message in flight (watch_stream.h); the
  // events are the commit feed's, held once. Measured in KiB per idle
  // stream (watchers_bench, tests/bench/README.md).
  int watchers_in_all = 8192;
  // Concurrent RecordEvents streams (`arbiter serve --recorders-per-caller`,
  // `--recorders`): a hall's clocks behind one gateway keep one open per
  // board. Each holds one request and one answer, and no thread.
  int recorders_per_caller = 1024;
  int recorders_in_all = 8192;
  // Concurrent server reflection streams: gRPC's reflection service is
  // synchronous, so each open stream holds a thread of gRPC's pool (5,000
  // idle ones from one token once made 5,000 threads). A tool such as
  // grpcurl opens one at a time.
  int reflections_per_caller = 4;
  int reflections_in_all = 16;
  // How long a watch stream sends on one look-up of its token: before a
  // message, a stream whose token was last looked up longer ago looks it up
  // again (StillAdmits), so a revoked or expired token's watch ends within
  // this of its next message (0: before every message).
  absl::Duration watch_token_checked_every = absl::Seconds(1);
};

// The streams a caller holds open, each kind capped apart (AuthLimits).
enum class StreamKind {
  kWatch,       // WatchGame, WatchAll
  kRecord,      // RecordEvents
  kReflection,  // grpc.reflection's ServerReflectionInfo
};

// An admitted caller, as the handlers see it.
struct Caller {
  std::string key;                 // rate-limit key: token id, or the peer's host
  std::string actor;               // "Li Wei (ARBITER, token 1a2b3c4d)"; empty when open
  std::optional<Role> role;        // none when the server runs open
  std::vector<std::string> games;  // an ARBITER's games ("*": all)

  // Whether this caller holds `access` (everyone, on an open server).
  bool Holds(v1::Access access) const { return !role.has_value() || Permits(*role, access); }
  // The authority this caller's events carry (Event.authority).
  v1::Authority authority() const {
    return role.has_value() ? AuthorityOf(*role) : v1::AUTHORITY_UNSPECIFIED;
  }
  // OK, or PERMISSION_DENIED when an ARBITER is not assigned to `game`.
  absl::Status MayRecordIn(absl::string_view game) const;
};

class Gatekeeper {
 public:
  // `tokens` is not owned and must outlive this.
  explicit Gatekeeper(TokenStore* tokens, AuthLimits limits = {});

  // Authenticates and authorizes a call of the full method name `method`
  // ("/arbiter.v1.Arbiter/AppendEvents") carrying `authorization` (the
  // header's value, nullopt when absent) from `peer`, and charges the
  // caller's rate. Errors: UNAUTHENTICATED, PERMISSION_DENIED,
  // RESOURCE_EXHAUSTED (the rate), or the token store's own. Asked again
  // for each further message a client streams on the call (the token looked
  // up again, the rate charged again).
  absl::StatusOr<Caller> Admit(absl::string_view method,
                               std::optional<absl::string_view> authorization,
                               absl::string_view peer);
  // As Admit, with every authorization header the call carries: none is
  // UNAUTHENTICATED as above, and so is more than one (which of two tokens
  // a proxy, a client library or this server would read is nobody's
  // decision to make: a call names one caller).
  absl::StatusOr<Caller> Admit(absl::string_view method,
                               absl::Span<const absl::string_view> authorizations,
                               absl::string_view peer);

  // Whether a call Admit admitted may go on (a watch stream, before it
  // sends): its token looked up again, nothing charged. UNAUTHENTICATED
  // when it was revoked or has expired since (or the server has come to
  // need one), PERMISSION_DENIED as Admit, or the token store's errors.
  absl::Status StillAdmits(absl::string_view method, std::optional<absl::string_view> authorization,
                           absl::string_view peer);
  absl::Duration watch_token_checked_every() const { return limits_.watch_token_checked_every; }

  // As Admit, for a console session signed in with the token of id
  // `token_id` (none: a session of a server without tokens): the token is
  // looked up by its id, so a session carries no secret (console/sessions.h).
  absl::StatusOr<Caller> AdmitSession(absl::string_view method,
                                      const std::optional<std::string>& token_id,
                                      absl::string_view peer);

  // A stream of `kind` opening (RESOURCE_EXHAUSTED beyond its caps) and
  // closing.
  absl::Status OpenStream(const Caller& caller, StreamKind kind);
  void CloseStream(const Caller& caller, StreamKind kind);

 private:
  struct Bucket {
    double tokens;
    absl::Time refilled;
  };
  // Admit's and AdmitSession's common part: `lookup` gives the caller's
  // token when the server has tokens and the method is not PUBLIC.
  absl::StatusOr<Caller> AdmitWith(absl::string_view method, absl::string_view peer,
                                   absl::FunctionRef<absl::StatusOr<TokenInfo>()> lookup,
                                   bool charge = true);
  // The token an authorization header names (Admit's look-up).
  absl::StatusOr<TokenInfo> Bearer(std::optional<absl::string_view> authorization);
  // Charges one request to the caller's rate; RESOURCE_EXHAUSTED when it
  // is spent.
  absl::Status Charge(const Caller& caller, v1::Access access);
  // `refusal`, charged (when `charge`) to the caller's read rate first:
  // RESOURCE_EXHAUSTED instead once that is spent.
  absl::Status ChargeRefusal(const Caller& caller, absl::Status refusal, bool charge);
  // Takes one of the caller's tokens: zero, or (nothing taken) how long
  // until the bucket holds one again.
  absl::Duration Take(absl::flat_hash_map<std::string, Bucket>& buckets, const std::string& key,
                      double rate, double burst) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  TokenStore* tokens_;
  const AuthLimits limits_;
  absl::Mutex mu_;
  absl::flat_hash_map<std::string, Bucket> writes_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<std::string, Bucket> reads_ ABSL_GUARDED_BY(mu_);
  // The open streams of one kind, per caller and in all, and their caps.
  struct OpenStreams {
    const absl::string_view what;  // "watch", "RecordEvents": for messages
    const int per_caller_cap;
    const int in_all_cap;
    absl::flat_hash_map<std::string, int> by_caller;
    int in_all = 0;
  };
  OpenStreams& Streams(StreamKind kind) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    switch (kind) {
      case StreamKind::kWatch:
        return watchers_;
      case StreamKind::kRecord:
        return recorders_;
      case StreamKind::kReflection:
        break;
    }
    return reflections_;
  }
  OpenStreams watchers_ ABSL_GUARDED_BY(mu_);
  OpenStreams recorders_ ABSL_GUARDED_BY(mu_);
  OpenStreams reflections_ ABSL_GUARDED_BY(mu_);
};

}  // namespace arbiter::service

#endif  // ARBITER_ADJUDICATOR_SERVICE_AUTH_GATEKEEPER_H_
