// What a server keeps besides the log, as tables of its store (issue 44.5):
// its bearer tokens, its console sessions, the witnesses' cosignatures of
// its checkpoints, the meta rows that are set once (the log's origin), and
// its webhook endpoints with their cursors and deliveries (issue 46; a
// secret is kept as given: the server needs it for each v1 HMAC).
// A SQLite ledger keeps them in its ledger.db, a PostgreSQL one in its
// database, so every server of one database sees the same rows at once and
// a server's own folder holds nothing but keys. A Store hands them out
// (Store::OpenServerTables); each backend implements them in its folder.
//
// The ledger knows no service: rows are plain values (a token's role is the
// service's name for it). A token's or a session's secret never reaches a
// table: it is stored as the SHA-256 of its secret.
//
// Errors of every statement: UNAVAILABLE when the database cannot be
// reached or is busy beyond its timeout (with its message); DATA_LOSS when
// it is corrupt. Those of a statement in particular are named with it.
#ifndef ARBITER_LEDGER_SERVER_TABLES_H_
#define ARBITER_LEDGER_SERVER_TABLES_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace arbiter::ledger {

struct TokenRow {
  std::string id;       // the public handle, unique
  std::string sha256;   // of the secret (32 bytes), unique
  std::string role;     // as the service names it
  std::string name;     // who holds it
  std::string games;    // comma-separated (an ARBITER's games)
  int64_t created = 0;  // unix seconds, as the times below
  std::optional<int64_t> revoked;
  std::optional<int64_t> expires;  // none: until revoked
};

// A webhook endpoint (issue 46): where a server sends the events of the kinds
// it asked for, and how far through the log it has made their deliveries.
struct WebhookRow {
  std::string id;      // "wh_" and hex, unique
  std::string url;     // http:// or https://
  std::string kinds;   // comma-separated, as adjudicator/service/webhooks.h names them
  std::string secret;  // "whsec_..." (the v1 HMAC's key), or empty
  int64_t created = 0;
  // Every event at or before this log position has its deliveries rows
  // (or had them, once delivered); the next is read after it.
  uint64_t cursor = 0;
  std::optional<int64_t> disabled;  // when the receiver answered 410 Gone
  std::string disabled_why;
};

// One message to one endpoint, its body fixed when first made.
struct DeliveryRow {
  std::string endpoint;
  std::string id;  // webhook-id
  uint64_t position = 0;
  std::string kind;
  std::string body;
  int attempts = 0;
  int64_t next_at = 0;  // unix milliseconds: the next attempt's time
  bool failed = false;  // failed for good: sent again only by a retry
  std::string last_error;
};

struct SessionRow {
  std::string sha256;    // of the session's secret (the cookie's value)
  std::string token_id;  // the token signed in with; empty on a server that has none
  int64_t started = 0;   // unix seconds
};

// How many sessions OpenSession keeps, and from when.
struct SessionBounds {
  int64_t per_token = 16;     // beyond: the token's oldest goes
  int64_t in_all = 10000;     // beyond: the oldest of the token holding the most goes
  int64_t started_after = 0;  // sessions started before are gone (expired)
};

class ServerTables {
 public:
  virtual ~ServerTables() = default;

  // Tokens. InsertToken: FAILED_PRECONDITION when its id or hash is taken.
  virtual absl::Status InsertToken(const TokenRow& token) = 0;
  // Each row not already there, in one transaction; a row whose id is there
  // with another hash (or hash with another id) refuses them all,
  // FAILED_PRECONDITION naming the id. Returns how many were added.
  virtual absl::StatusOr<int> ImportTokens(const std::vector<TokenRow>& tokens) = 0;
  virtual absl::StatusOr<std::optional<TokenRow>> TokenByHash(const std::string& sha256) = 0;
  virtual absl::StatusOr<std::optional<TokenRow>> TokenById(const std::string& id) = 0;
  // Sets `revoked` to `at` unless set; false when no token has `id`.
  virtual absl::StatusOr<bool> RevokeToken(const std::string& id, int64_t at) = 0;
  // Every token, by creation time then id.
  virtual absl::StatusOr<std::vector<TokenRow>> Tokens() = 0;
  virtual absl::StatusOr<bool> AnyToken() = 0;

  // Sessions. OpenSession adds `session` within `bounds`, in one
  // transaction; FAILED_PRECONDITION when its hash is taken.
  virtual absl::Status OpenSession(const SessionRow& session, const SessionBounds& bounds) = 0;
  virtual absl::StatusOr<std::optional<SessionRow>> SessionByHash(const std::string& sha256) = 0;
  virtual absl::Status CloseSession(const std::string& sha256) = 0;

  // The meta row `key` (rows set once, never changed): the value kept, or,
  // when none is, `value` kept now (by whichever of several servers is
  // first: each gets the one kept).
  virtual absl::StatusOr<std::string> KeepMeta(const std::string& key,
                                               const std::string& value) = 0;
  virtual absl::StatusOr<std::optional<std::string>> Meta(const std::string& key) = 0;

  // Cosignatures (cosignature_store.h): a line kept once per tree size.
  virtual absl::Status AddCosignature(uint64_t tree_size, const std::string& line) = 0;
  // The lines of `tree_size`, in the order added.
  virtual absl::StatusOr<std::vector<std::string>> Cosignatures(uint64_t tree_size) = 0;
  virtual absl::StatusOr<std::map<uint64_t, int>> CosignatureCounts() = 0;

  // Webhooks. AddWebhook: FAILED_PRECONDITION when its id is taken.
  virtual absl::Status AddWebhook(const WebhookRow& webhook) = 0;
  // Removes it and its deliveries; false when no endpoint has `id`.
  virtual absl::StatusOr<bool> RemoveWebhook(const std::string& id) = 0;
  // Every endpoint, by creation time then id.
  virtual absl::StatusOr<std::vector<WebhookRow>> Webhooks() = 0;
  // In one transaction: `made` kept (a row whose id is kept already keeps
  // its body) and the endpoint's cursor raised to `cursor`.
  virtual absl::Status AdvanceWebhook(const std::string& endpoint, uint64_t cursor,
                                      const std::vector<DeliveryRow>& made) = 0;
  // The endpoint's deliveries not yet made, pending and failed, by position
  // then id.
  virtual absl::StatusOr<std::vector<DeliveryRow>> Deliveries(const std::string& endpoint) = 0;
  // Sets a kept delivery's attempts, next_at, failed and last_error.
  virtual absl::Status UpdateDelivery(const DeliveryRow& delivery) = 0;
  // The receiver took it: the row goes.
  virtual absl::Status DeliveryDone(const std::string& endpoint, const std::string& id) = 0;
  virtual absl::Status DisableWebhook(const std::string& endpoint, int64_t at,
                                      const std::string& why) = 0;
  // The endpoint enabled again and its failed deliveries pending again, due
  // at `now_ms`; how many there were. NOT_FOUND for no such endpoint.
  virtual absl::StatusOr<int> RetryWebhook(const std::string& endpoint, int64_t now_ms) = 0;
  // Takes the endpoint's lease for `owner` until `until_ms` when no other
  // owner holds one past `now_ms` (several servers on one database send
  // each delivery one at a time); false when another holds it. `until_ms`
  // 0 gives back the owner's lease.
  virtual absl::StatusOr<bool> LeaseWebhook(const std::string& endpoint, const std::string& owner,
                                            int64_t now_ms, int64_t until_ms) = 0;
  // When the lease held by another than `owner` ends (unix ms; 0: none held).
  virtual absl::StatusOr<int64_t> WebhookLeaseEnd(const std::string& endpoint,
                                                  const std::string& owner) = 0;
};

}  // namespace arbiter::ledger

#endif  // ARBITER_LEDGER_SERVER_TABLES_H_
