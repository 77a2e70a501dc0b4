// The console's sessions: who is signed in at a browser, and the CSRF token
// every write from that browser must carry.
//
// Signing in hands over a bearer token (the same tokens the gRPC service
// takes, `arbiter token create`); the session keeps it in memory only and
// every request is admitted with it again (auth_gatekeeper.h), so a revoked
// or expired token stops the session at once. The browser holds only a
// random session id, in an HttpOnly, SameSite=Strict cookie that scripts
// cannot read and other sites cannot send. On a server with no tokens a
// session carries no token: it exists for its CSRF token.
//
// Sessions end on logout, after kLifetime, or when the process stops. One
// token holds at most kMaxPerToken of them: signing in again beyond that
// ends that token's oldest, so a flood of sign-ins with one token evicts its
// own sessions and nobody else's. When kMaxSessions are open in all, the
// oldest session of the token holding the most goes.
#ifndef ARBITER_ADJUDICATOR_SERVICE_CONSOLE_SESSIONS_H_
#define ARBITER_ADJUDICATOR_SERVICE_CONSOLE_SESSIONS_H_

#include <deque>
#include <optional>
#include <string>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"

namespace arbiter::service::console {

struct Session {
  std::string id;                     // the cookie's value: 32 random bytes, hex
  std::string csrf;                   // the X-CSRF-Token every write carries
  std::optional<std::string> secret;  // the bearer token signed in with; none when open
  absl::Time started;
};

class Sessions {
 public:
  static constexpr absl::Duration kLifetime = absl::Hours(12);
  static constexpr size_t kMaxSessions = 10000;
  static constexpr size_t kMaxPerToken = 16;

  // A new session holding `secret`. INTERNAL when the system has no
  // randomness to give.
  absl::StatusOr<Session> Open(std::optional<std::string> secret);
  // The live session `id` names; none when unknown, closed or too old.
  std::optional<Session> Find(absl::string_view id);
  void Close(absl::string_view id);

 private:
  absl::Mutex mu_;
  // Ends session `id`, which is open.
  void Drop(const std::string& id) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  absl::flat_hash_map<std::string, Session> sessions_ ABSL_GUARDED_BY(mu_);
  // Each token's open sessions, oldest first (open sessions under "").
  absl::flat_hash_map<std::string, std::deque<std::string>> by_token_ ABSL_GUARDED_BY(mu_);
};

// The cookie that carries a session id.
inline constexpr absl::string_view kSessionCookie = "arbiter_session";

// "Set-Cookie" values: the session's (HttpOnly, SameSite=Strict, Path=/,
// for kLifetime; Secure when `secure`, the console serving TLS) and the one
// that clears it.
std::string SessionCookieHeader(absl::string_view id, bool secure);
std::string ClearedCookieHeader(bool secure);

// The value of cookie `name` in a "Cookie" header; none when absent.
std::optional<std::string> CookieValue(absl::string_view header, absl::string_view name);

// Whether two secrets are equal, in time independent of where they differ.
bool SameSecret(absl::string_view a, absl::string_view b);

}  // namespace arbiter::service::console

#endif  // ARBITER_ADJUDICATOR_SERVICE_CONSOLE_SESSIONS_H_
