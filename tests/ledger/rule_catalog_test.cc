// RuleCatalog: publishing, loading back, immutability.
#include "ledger/rule_catalog.h"

#include <string>

#include "gtest/gtest.h"
#include "ledger/sqlite.h"
#include "rulesdb/builtin_rules.h"
#include "rulesdb/content_hash.h"
#include "rulesdb/rules.h"
#include "tests/support/temp_dir.h"

namespace arbiter::ledger {
namespace {

using ::arbiter::testing::TempDir;

std::unique_ptr<RuleCatalog> OpenMemory() {
  absl::StatusOr<std::unique_ptr<RuleCatalog>> catalog = RuleCatalog::Open(":memory:");
  EXPECT_TRUE(catalog.ok()) << catalog.status();
  return *std::move(catalog);
}

TEST(Catalog, PublishesBuiltinsAndLoadsThemBackWithTheSameHash) {
  auto catalog = OpenMemory();
  ASSERT_TRUE(catalog->PublishBuiltins().ok());
  for (const char* id : {"cn-2002", "cn-1988"}) {
    absl::StatusOr<v1::Ruleset> loaded = catalog->LoadRuleset(id);
    ASSERT_TRUE(loaded.ok()) << loaded.status();
    EXPECT_EQ(ContentHash(*loaded), LoadRules(id)->hash());
    EXPECT_EQ(*catalog->RulesetHash(id), LoadRules(id)->hash());
  }
  absl::StatusOr<v1::Supplement> supplement =
      catalog->LoadSupplement("cn-2002-repetition-no-result");
  ASSERT_TRUE(supplement.ok()) << supplement.status();
  EXPECT_EQ(supplement->overrides().repetition_preset(), "NO_RESULT");
  absl::StatusOr<std::vector<RuleCatalog::Entry>> entries = catalog->List();
  ASSERT_TRUE(entries.ok());
  EXPECT_EQ(entries->size(),
            (*BuiltinRulesData())->rulesets.size() + (*BuiltinRulesData())->supplements.size());
  // Publishing the same content again is a no-op.
  EXPECT_TRUE(catalog->PublishBuiltins().ok());
  EXPECT_EQ(catalog->List()->size(), entries->size());
}

TEST(Catalog, PublishedVersionsAreImmutable) {
  auto catalog = OpenMemory();
  v1::Ruleset ruleset = **BuiltinRulesetVersion("cn-2002", "2002.1");
  absl::StatusOr<std::string> first = catalog->PublishRuleset(ruleset);
  ASSERT_TRUE(first.ok()) << first.status();
  ruleset.mutable_parameters()->set_komi_quarters(13);
  absl::StatusOr<std::string> changed = catalog->PublishRuleset(ruleset);
  EXPECT_EQ(changed.status().code(), absl::StatusCode::kAlreadyExists);
  EXPECT_NE(changed.status().message().find("new version"), absl::string_view::npos);
  // Still the original content.
  EXPECT_EQ(catalog->LoadRuleset("cn-2002")->parameters().komi_quarters(), 15);
  // A new version id is a new publication; the latest is loaded by default.
  ruleset.set_version("2002.1-komi13");
  absl::StatusOr<std::string> second = catalog->PublishRuleset(ruleset);
  ASSERT_TRUE(second.ok()) << second.status();
  EXPECT_NE(*second, *first);
  EXPECT_EQ(catalog->LoadRuleset("cn-2002")->parameters().komi_quarters(), 13);
  EXPECT_EQ(catalog->LoadRuleset("cn-2002", "2002.1")->parameters().komi_quarters(), 15);
  EXPECT_EQ(*catalog->RulesetHash("cn-2002", "2002.1"), *first);
}

TEST(Catalog, TheDatabaseRefusesEditsAndDetectsTampering) {
  TempDir dir;
  const std::string path = dir.path() + "/catalog.db";
  {
    auto catalog = *RuleCatalog::Open(path);
    ASSERT_TRUE(catalog->PublishRuleset(**BuiltinRuleset("cn-1988")).ok());
  }
  {
    absl::StatusOr<Db> db = Db::Open(path, SQLITE_OPEN_READWRITE);
    ASSERT_TRUE(db.ok()) << db.status();
    EXPECT_FALSE(db->Exec("UPDATE rulesets SET hash = 'x'").ok());
    EXPECT_FALSE(db->Exec("DELETE FROM clauses").ok());
    // Someone drops the guard and edits the stored content: loading notices.
    ASSERT_TRUE(db->Exec("DROP TRIGGER rulesets_no_update;"
                         "UPDATE rulesets SET content = content || x'00'")
                    .ok());
  }
  auto catalog = *RuleCatalog::Open(path);
  EXPECT_EQ(catalog->LoadRuleset("cn-1988").status().code(), absl::StatusCode::kDataLoss);
}

TEST(Catalog, SupplementsNeedTheirBaseAndAreImmutable) {
  auto catalog = OpenMemory();
  v1::Supplement supplement = **BuiltinSupplement("cn-1988-late-30min");
  EXPECT_EQ(catalog->PublishSupplement(supplement).status().code(),
            absl::StatusCode::kFailedPrecondition);
  ASSERT_TRUE(catalog->PublishRuleset(**BuiltinRuleset("cn-1988")).ok());
  absl::StatusOr<std::string> hash = catalog->PublishSupplement(supplement);
  ASSERT_TRUE(hash.ok()) << hash.status();
  EXPECT_EQ(*hash, LoadRules("cn-1988", "cn-1988-late-30min")->supplement_hash());
  supplement.mutable_overrides()->mutable_late_limit_same_site()->set_seconds(600);
  EXPECT_EQ(catalog->PublishSupplement(supplement).status().code(),
            absl::StatusCode::kAlreadyExists);
}

TEST(Catalog, FindsTheRulesetAGamePinnedByItsHash) {
  auto catalog = OpenMemory();
  ASSERT_TRUE(catalog->PublishBuiltins().ok());
  const std::string pinned = LoadRules("cn-1988")->hash();
  absl::StatusOr<v1::Ruleset> ruleset = catalog->LoadRulesetByHash(pinned);
  ASSERT_TRUE(ruleset.ok()) << ruleset.status();
  EXPECT_EQ(ruleset->id(), "cn-1988");
  EXPECT_EQ(ContentHash(*ruleset), pinned);
  EXPECT_EQ(catalog->LoadRulesetByHash(std::string(64, '0')).status().code(),
            absl::StatusCode::kNotFound);
}

TEST(Catalog, UnknownIdsAreNotFound) {
  auto catalog = OpenMemory();
  EXPECT_EQ(catalog->LoadRuleset("cn-2002").status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(catalog->LoadSupplement("x").status().code(), absl::StatusCode::kNotFound);
}

}  // namespace
}  // namespace arbiter::ledger
