// RuleCatalog: the published ruleset and supplement versions, in SQLite.
//
// A published version is immutable: publishing the same id and version again
// with the same content is a no-op, with different content it is refused (a
// change must be a new version id), and triggers refuse any UPDATE or DELETE
// of published rows. Each version is stored as its canonical serialization
// with its content hash; loading it back re-checks the hash, so a changed row
// is detected rather than trusted. The articles, clauses and sanctionings are
// also spread over their own tables, for auditors who query with SQL.
//
// The rules themselves are data in rulesdb/; this is their storage, so it
// lives with the ledger's and uses its SQLite wrapper (sqlite.h).
#ifndef ARBITER_LEDGER_RULE_CATALOG_H_
#define ARBITER_LEDGER_RULE_CATALOG_H_

#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "arbiter/v1/rules.pb.h"
#include "ledger/sqlite.h"

namespace arbiter::ledger {

class RuleCatalog {
 public:
  struct Entry {
    std::string kind;  // "ruleset" or "supplement"
    std::string id;
    std::string version;
    std::string hash;
    std::string base;  // a supplement's base ruleset
  };

  // Opens (creating if needed) the catalog at `path`; ":memory:" for a
  // private in-memory one. UNAVAILABLE when the file cannot be opened or is
  // locked; DATA_LOSS when it is not a database.
  static absl::StatusOr<std::unique_ptr<RuleCatalog>> Open(const std::string& path);
  RuleCatalog(const RuleCatalog&) = delete;
  RuleCatalog& operator=(const RuleCatalog&) = delete;

  // Validates and publishes; returns the content hash. INVALID_ARGUMENT
  // (from validation) for a malformed ruleset; ALREADY_EXISTS when this id
  // and version are published with other content; UNAVAILABLE when another
  // writer holds the catalog past the busy timeout. Nothing is written
  // unless everything is.
  absl::StatusOr<std::string> PublishRuleset(const v1::Ruleset& ruleset);
  // The same for a supplement, whose base ruleset must be published first
  // (FAILED_PRECONDITION if not).
  absl::StatusOr<std::string> PublishSupplement(const v1::Supplement& supplement);
  // Publishes every built-in ruleset and supplement; the errors above.
  absl::Status PublishBuiltins();

  // A version, or the latest published one when `version` is empty.
  // NOT_FOUND for unknown ids; DATA_LOSS if the stored content no longer
  // matches its hash or does not parse; UNAVAILABLE when storage fails.
  // The same for the two calls below.
  absl::StatusOr<v1::Ruleset> LoadRuleset(std::string_view id, std::string_view version = "");
  absl::StatusOr<v1::Supplement> LoadSupplement(std::string_view id, std::string_view version = "");

  // The published ruleset with this content hash, whatever its id and
  // version: what an auditor holding a game's pinned hash looks up.
  absl::StatusOr<v1::Ruleset> LoadRulesetByHash(std::string_view hash);

  // The stored hash of a version (the latest when `version` is empty).
  absl::StatusOr<std::string> RulesetHash(std::string_view id, std::string_view version = "");

  // Everything published, in publication order.
  absl::StatusOr<std::vector<Entry>> List();

 private:
  // A stored version: its canonical bytes and published hash.
  struct Content {
    std::string bytes;
    std::string hash;
  };

  explicit RuleCatalog(Db db) : db_(std::move(db)) {}
  // NOT_FOUND, or DATA_LOSS when the bytes no longer match the hash.
  absl::StatusOr<Content> LoadContent(const char* table, std::string_view id,
                                      std::string_view version);
  Db db_;
};

}  // namespace arbiter::ledger

#endif  // ARBITER_LEDGER_RULE_CATALOG_H_
