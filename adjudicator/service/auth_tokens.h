// The bearer tokens of a server: a table of its store (ledger/server_tables.h),
// in the data folder's ledger.db or in the PostgreSQL database every server
// of a federation shares, so a token made or revoked through one is every
// server's at once. `arbiter token` opens the table without the ledger, so
// it works while a server runs.
//
// A token is "arb_" + 32 random bytes in hex, shown once when created. Only
// its SHA-256 is stored, so a copy of the database does not let anyone in.
// A revoked token stays listed (who had access, and until when) and is
// refused from the next call on: the server looks tokens up on every call.
// So does an expired one: a token may carry an expiry (`arbiter token create
// --ttl`), after which it is refused with a message saying it expired.
//
// Earlier releases kept tokens in `<data dir>/tokens.db` (schema 0 without
// expiries, 1 with): Open imports such a file once, its tokens keeping
// their ids, hashes and times, and leaves it beside, read-only.
#ifndef ARBITER_ADJUDICATOR_SERVICE_AUTH_TOKENS_H_
#define ARBITER_ADJUDICATOR_SERVICE_AUTH_TOKENS_H_

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "adjudicator/service/auth_role.h"
#include "ledger/server_tables.h"

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

// The tokens of the tokens.db an earlier release left in `dir`, not yet
// imported: none when there is no such file or it is read-only (imported
// already). FAILED_PRECONDITION for a file of a newer schema.
absl::StatusOr<std::vector<ledger::TokenRow>> ReadLegacyTokens(const std::string& dir);
// Makes `dir`/tokens.db read-only, the mark that its tokens are imported
// (nothing to do when there is none).
absl::Status MarkLegacyTokensImported(const std::string& dir);

class TokenStore {
 public:
  using Clock = std::function<absl::Time()>;

  // The tokens of the store at `location` (a data folder, or a PostgreSQL
  // URI), after importing a tokens.db an older release left in `own_dir`
  // (for a data folder, by default itself). FAILED_PRECONDITION for a
  // tokens.db of a newer schema, or one whose token ids clash with the
  // store's; the store's errors. `now` tells the time for creation,
  // revocation and expiry (tests pass their own).
  static absl::StatusOr<std::unique_ptr<TokenStore>> Open(const std::string& location,
                                                          Clock now = absl::Now);
  static absl::StatusOr<std::unique_ptr<TokenStore>> Open(const std::string& location,
                                                          const std::string& own_dir, Clock now);

  // Issues a token, valid for `ttl` from now (none: until revoked); returns
  // the secret (never stored). INVALID_ARGUMENT for an empty or unprintable
  // name, an ARBITER with no games, or a ttl that is not positive.
  absl::StatusOr<std::string> Create(Role role, const std::string& name,
                                     const std::vector<std::string>& games,
                                     std::optional<absl::Duration> ttl = std::nullopt);

  // NOT_FOUND when no token has `id`; revoking twice is fine.
  absl::Status Revoke(const std::string& id);

  absl::StatusOr<std::vector<TokenInfo>> List();

  // The live token `secret` is. UNAUTHENTICATED when it is unknown, revoked
  // or expired (the message says which of expired or unknown-or-revoked).
  absl::StatusOr<TokenInfo> Verify(absl::string_view secret);
  // The live token of id `id` (a console session's), with Verify's errors.
  absl::StatusOr<TokenInfo> VerifyId(const std::string& id);

  // Whether any token has ever been issued: a server with none runs open
  // (revoked and expired tokens count: they never reopen a server).
  absl::StatusOr<bool> Any();

  // The store's tables, which the console's sessions share.
  ledger::ServerTables& tables() { return *tables_; }
  absl::Time Now() const { return now_(); }

 private:
  TokenStore(std::unique_ptr<ledger::ServerTables> tables, Clock now)
      : tables_(std::move(tables)), now_(std::move(now)) {}
  // Verify's and VerifyId's checks of a row found (or not).
  absl::StatusOr<TokenInfo> Live(absl::StatusOr<std::optional<ledger::TokenRow>> row);

  std::unique_ptr<ledger::ServerTables> tables_;
  const Clock now_;
  std::atomic<bool> any_{false};  // a token has been seen
};

}  // namespace arbiter::service

#endif  // ARBITER_ADJUDICATOR_SERVICE_AUTH_TOKENS_H_
