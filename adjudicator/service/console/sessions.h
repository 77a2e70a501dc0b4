// The console's sessions: who is signed in at a browser, and the CSRF token
// every write from that browser must carry.
//
// Signing in hands over a bearer token (the same tokens the gRPC service
// takes, `arbiter token create`). The session keeps the token's id, never
// its secret, and every request is admitted with that token looked up
// again (auth_gatekeeper.h), so a revoked or expired token stops the
// session at once. The browser holds a random session secret, in an
// HttpOnly, SameSite=Strict cookie that scripts cannot read and other sites
// cannot send; the store keeps only its SHA-256 (a table of the ledger's
// database, ledger/server_tables.h), so a session opened on one server is
// every server's of that database, and a copy of the database opens none.
// The CSRF token is derived from the secret (a hash of it under its own
// label), so every server gives the same one without storing it. On a
// server with no tokens a session carries no token: it exists for its CSRF
// token.
//
// Sessions end on logout (on every server), after kLifetime. One token
// holds at most kMaxPerToken of them: signing in again beyond that ends that
// token's oldest, so a flood of sign-ins with one token evicts its own
// sessions and nobody else's. When kMaxSessions are open in all, the oldest
// session of the token holding the most goes.
#ifndef ARBITER_ADJUDICATOR_SERVICE_CONSOLE_SESSIONS_H_
#define ARBITER_ADJUDICATOR_SERVICE_CONSOLE_SESSIONS_H_

#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "ledger/server_tables.h"

namespace arbiter::service::console {

struct Session {
  std::string id;                       // the cookie's value: 32 random bytes, hex
  std::string csrf;                     // the X-CSRF-Token every write carries
  std::optional<std::string> token_id;  // the token signed in with; none when open
  absl::Time started;
};

class Sessions {
 public:
  static constexpr absl::Duration kLifetime = absl::Hours(12);
  static constexpr size_t kMaxSessions = 10000;
  static constexpr size_t kMaxPerToken = 16;

  // Sessions kept in `tables` (not owned), at most `per_token` per token
  // and `in_all` in all.
  explicit Sessions(ledger::ServerTables* tables, size_t per_token = kMaxPerToken,
                    size_t in_all = kMaxSessions)
      : tables_(tables), per_token_(per_token), in_all_(in_all) {}

  // A new session signed in with the token `token_id` (none: the server has
  // no tokens). INTERNAL when the system has no randomness to give; the
  // store's errors.
  absl::StatusOr<Session> Open(std::optional<std::string> token_id);
  // The live session `id` names; none when unknown, closed or too old.
  absl::StatusOr<std::optional<Session>> Find(absl::string_view id);
  absl::Status Close(absl::string_view id);

 private:
  ledger::ServerTables* const tables_;
  const size_t per_token_;
  const size_t in_all_;
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
