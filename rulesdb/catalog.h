// RuleCatalog: the published ruleset and supplement versions, in SQLite.
//
// A published version is immutable: publishing the same id and version again
// with the same content is a no-op, with different content it is refused (a
// change must be a new version id), and triggers refuse any UPDATE or DELETE
// of published rows. Each version is stored as its canonical serialization
// with its content hash; loading it back re-checks the hash, so a changed row
// is detected rather than trusted. The articles, clauses and sanctionings are
// also spread over their own tables, for auditors who query with SQL.
#ifndef ARBITER_RULESDB_CATALOG_H_
#define ARBITER_RULESDB_CATALOG_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "arbiter/v1/rules.pb.h"

struct sqlite3;

namespace arbiter {

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
  // private in-memory one. UNAVAILABLE when the file cannot be opened.
  static absl::StatusOr<std::unique_ptr<RuleCatalog>> Open(const std::string& path);
  ~RuleCatalog();
  RuleCatalog(const RuleCatalog&) = delete;
  RuleCatalog& operator=(const RuleCatalog&) = delete;

  // Validates and publishes; returns the content hash. ALREADY_EXISTS when
  // this id and version are published with other content.
  absl::StatusOr<std::string> PublishRuleset(const v1::Ruleset& ruleset);
  // The base ruleset must be published first (FAILED_PRECONDITION if not).
  absl::StatusOr<std::string> PublishSupplement(const v1::Supplement& supplement);
  // Publishes every built-in ruleset and supplement.
  absl::Status PublishBuiltins();

  // A version, or the latest published one when `version` is empty.
  // NOT_FOUND for unknown ids; DATA_LOSS if the stored content no longer
  // matches its hash.
  absl::StatusOr<v1::Ruleset> LoadRuleset(std::string_view id, std::string_view version = "");
  absl::StatusOr<v1::Supplement> LoadSupplement(std::string_view id,
                                                std::string_view version = "");

  // The published ruleset with this content hash, whatever its id and
  // version: what an auditor holding a game's pinned hash looks up.
  absl::StatusOr<v1::Ruleset> LoadRulesetByHash(std::string_view hash);

  // The stored hash of a version (the latest when `version` is empty).
  absl::StatusOr<std::string> RulesetHash(std::string_view id, std::string_view version = "");

  // Everything published, in publication order.
  absl::StatusOr<std::vector<Entry>> List();

 private:
  explicit RuleCatalog(sqlite3* db);
  absl::Status Exec(const char* sql);
  absl::StatusOr<std::string> LoadContent(const char* table, std::string_view id,
                                          std::string_view version, std::string* hash);
  sqlite3* db_;
};

}  // namespace arbiter

#endif  // ARBITER_RULESDB_CATALOG_H_
