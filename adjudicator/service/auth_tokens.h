// The bearer tokens of one server, in `<data dir>/tokens.db` (SQLite, apart
// from the ledger so that `arbiter token` works while the server runs).
//
// A token is "arb_" + 32 random bytes in hex, shown once when created. Only
// its SHA-256 is stored, so a copy of the database does not let anyone in.
// A revoked token stays listed (who had access, and until when) and is
// refused from the next call on: the server looks tokens up on every call.
// So does an expired one: a token may carry an expiry (`arbiter token create
// --ttl`), after which it is refused with a message saying it expired.
//
// Schema versions (PRAGMA user_version): 0 the first store, without
// expiries; 1 adds the `expires` column. Open migrates an older store in
// place (its tokens keep no expiry) and refuses a newer one.
#ifndef ARBITER_ADJUDICATOR_SERVICE_AUTH_TOKENS_H_
#define ARBITER_ADJUDICATOR_SERVICE_AUTH_TOKENS_H_

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "adjudicator/service/auth_role.h"
#include "ledger/sqlite.h"

namespace arbiter::service {

struct TokenInfo {
  std::string id;  // public handle: the first 8 hex digits of the hash
  Role role = Role::kSoftware;
  std::string name;  // who holds it: the actor recorded on their events
  // ARBITER: the games it may record in ("*": all). Empty for other roles.
  std::vector<std::string> games;
  absl::Time created;
  std::optional<absl::Time> revoked;
  std::optional<absl::Time> expires;  // none: valid until revoked
};

// What `arbiter token create` gives a token without --ttl: a tournament's
// length with room to spare, so a token forgotten after the event dies on
// its own (SECURITY.md).
inline constexpr absl::Duration kDefaultTokenTtl = absl::Hours(30 * 24);

class TokenStore {
 public:
  using Clock = std::function<absl::Time()>;

  // Opens (creating if absent, migrating if older) `<data_dir>/tokens.db`.
  // FAILED_PRECONDITION for a store of a newer schema. `now` tells the time
  // for creation, revocation and expiry (tests pass their own).
  static absl::StatusOr<std::unique_ptr<TokenStore>> Open(const std::string& data_dir,
                                                          Clock now = absl::Now);

  // Issues a token, valid for `ttl` from now (none: until revoked); returns
  // the secret (never stored). INVALID_ARGUMENT for an empty or unprintable
  // name, an ARBITER with no games, or a ttl that is not positive.
  absl::StatusOr<std::string> Create(Role role, const std::string& name,
                                     const std::vector<std::string>& games,
                                     std::optional<absl::Duration> ttl = std::nullopt);

  // NOT_FOUND when no token has `id`; revoking twice is fine.
  absl::Status Revoke(const std::string& id);

  std::vector<TokenInfo> List();

  // The live token `secret` is. UNAUTHENTICATED when it is unknown, revoked
  // or expired (the message says which of expired or unknown-or-revoked).
  absl::StatusOr<TokenInfo> Verify(absl::string_view secret);

  // Whether any token has ever been issued: a server with none runs open
  // (revoked and expired tokens count: they never reopen a server).
  absl::StatusOr<bool> Any();

 private:
  TokenStore(ledger::Db db, Clock now) : db_(std::move(db)), now_(std::move(now)) {}
  // `kept`, prepared from `sql` on first use; the caller resets it after
  // reading, so no read stays open between calls.
  absl::StatusOr<ledger::Stmt*> Kept(std::optional<ledger::Stmt>& kept, absl::string_view sql)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  absl::Mutex mu_;
  ledger::Db db_;
  const Clock now_;
  // The statements every call runs, compiled once (Verify, Any).
  std::optional<ledger::Stmt> by_hash_ ABSL_GUARDED_BY(mu_);
  std::optional<ledger::Stmt> any_query_ ABSL_GUARDED_BY(mu_);
  std::atomic<bool> any_{false};  // a token has been seen
};

}  // namespace arbiter::service

#endif  // ARBITER_ADJUDICATOR_SERVICE_AUTH_TOKENS_H_
