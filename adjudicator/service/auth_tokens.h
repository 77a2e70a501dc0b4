// The bearer tokens of one server, in `<data dir>/tokens.db` (SQLite, apart
// from the ledger so that `arbiter token` works while the server runs).
//
// A token is "arb_" + 32 random bytes in hex, shown once when created. Only
// its SHA-256 is stored, so a copy of the database does not let anyone in.
// A revoked token stays listed (who had access, and until when) and is
// refused from the next call on: the server looks tokens up on every call.
#ifndef ARBITER_ADJUDICATOR_SERVICE_AUTH_TOKENS_H_
#define ARBITER_ADJUDICATOR_SERVICE_AUTH_TOKENS_H_

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
  std::string id;    // public handle: the first 8 hex digits of the hash
  Role role = Role::kSoftware;
  std::string name;  // who holds it: the actor recorded on their events
  // ARBITER: the games it may record in ("*": all). Empty for other roles.
  std::vector<std::string> games;
  absl::Time created;
  std::optional<absl::Time> revoked;
};

class TokenStore {
 public:
  // Opens (creating if absent) `<data_dir>/tokens.db`.
  static absl::StatusOr<std::unique_ptr<TokenStore>> Open(const std::string& data_dir);

  // Issues a token; returns the secret (never stored). INVALID_ARGUMENT for
  // an empty or unprintable name, or an ARBITER with no games.
  absl::StatusOr<std::string> Create(Role role, const std::string& name,
                                     const std::vector<std::string>& games);

  // NOT_FOUND when no token has `id`; revoking twice is fine.
  absl::Status Revoke(const std::string& id);

  std::vector<TokenInfo> List();

  // The live token `secret` is, or nullopt (unknown or revoked).
  absl::StatusOr<std::optional<TokenInfo>> Authenticate(absl::string_view secret);

  // Whether any token has ever been issued: a server with none runs open.
  absl::StatusOr<bool> Any();

 private:
  explicit TokenStore(ledger::Db db) : db_(std::move(db)) {}
  absl::Mutex mu_;
  ledger::Db db_;
};

}  // namespace arbiter::service

#endif  // ARBITER_ADJUDICATOR_SERVICE_AUTH_TOKENS_H_
