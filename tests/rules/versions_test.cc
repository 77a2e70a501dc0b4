// Ruleset versions: every published version stays built in and loads by its
// version or its content hash (what a ledger pins), the latest is what
// LoadRules gives, and a game names its version in gameCreated.
#include <filesystem>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "proto/canonical/canonical_bytes.h"
#include "rulesdb/builtin_rules.h"
#include "rulesdb/content_hash.h"
#include "rulesdb/rules.h"
#include "rulesdb/rules_data.h"
#include "rulesdb/rules_pin.h"
#include "tests/support/files.h"
#include "tests/support/paths.h"

namespace arbiter {
namespace {

// The published hashes (rulesdb/data/PUBLISHED) of the first versions, as
// games recorded before the second versions pinned them.
constexpr char kCn2002First[] = "8652fada6c5ef3b153b24fda2f331db0c0c5d042202886bd0e93445f8da37ddf";
constexpr char kCn1988First[] = "bd474d7c2ecccf6da426388462c4e72f27f58bd4de1d14c2bb5405ffef7335a9";

TEST(Versions, LoadRulesGivesTheLatestAndEveryVersionStaysLoadable) {
  EXPECT_EQ(LoadRules("cn-2002")->version(), "2002.6");
  EXPECT_EQ(LoadRules("cn-1988")->version(), "1988.4");
  absl::StatusOr<Rules> first = LoadRulesVersion("cn-2002", "2002.1");
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_EQ(first->version(), "2002.1");
  EXPECT_EQ(first->hash(), kCn2002First);
  EXPECT_EQ(LoadRulesVersion("cn-1988", "1988.1")->hash(), kCn1988First);
  EXPECT_EQ(LoadRulesVersion("cn-2002", "")->hash(), LoadRules("cn-2002")->hash());
}

TEST(Versions, APinnedHashLoadsItsVersion) {
  absl::StatusOr<Rules> pinned = LoadRulesByHash(kCn2002First);
  ASSERT_TRUE(pinned.ok()) << pinned.status();
  EXPECT_EQ(pinned->id(), "cn-2002");
  EXPECT_EQ(pinned->version(), "2002.1");
  absl::StatusOr<Rules> with = LoadRulesByHash(kCn2002First, "cn-2002-rapid-no-pass");
  ASSERT_TRUE(with.ok()) << with.status();
  EXPECT_EQ(with->version(), "2002.1");
  EXPECT_FALSE(with->params().pass_on_timeout());
  EXPECT_EQ(LoadRulesByHash(LoadRules("cn-1988")->hash())->version(), "1988.4");
  absl::StatusOr<Rules> unknown = LoadRulesByHash(std::string(64, 'a'));
  EXPECT_EQ(unknown.status().code(), absl::StatusCode::kNotFound);
}

TEST(Versions, UnknownVersionsAreNotFoundAndNameTheKnownOnes) {
  absl::StatusOr<Rules> rules = LoadRulesVersion("cn-2002", "2002.9");
  EXPECT_EQ(rules.status().code(), absl::StatusCode::kNotFound);
  EXPECT_NE(rules.status().message().find("2002.1, 2002.2"), std::string_view::npos)
      << rules.status();
}

TEST(Versions, AGameNamesItsVersion) {
  v1::GameCreated created;
  EXPECT_EQ(LoadRulesFor(created)->id(), "cn-2002");  // the default ruleset, latest
  EXPECT_EQ(LoadRulesFor(created)->version(), "2002.6");
  created.set_ruleset("cn-1988");
  created.set_ruleset_version("1988.1");
  created.set_supplement("cn-1988-late-30min");
  absl::StatusOr<Rules> rules = LoadRulesFor(created);
  ASSERT_TRUE(rules.ok()) << rules.status();
  EXPECT_EQ(rules->hash(), kCn1988First);
  EXPECT_EQ(rules->supplement_id(), "cn-1988-late-30min");
  created.set_ruleset_version("1987.1");
  EXPECT_EQ(LoadRulesFor(created).status().code(), absl::StatusCode::kNotFound);
}

TEST(Versions, SpecsNameAVersionAndASupplement) {
  EXPECT_EQ(LoadRulesSpec("cn-2002@2002.1")->hash(), kCn2002First);
  EXPECT_EQ(LoadRulesSpec("cn-2002")->version(), "2002.6");
  absl::StatusOr<Rules> both = LoadRulesSpec("cn-2002@2002.1+cn-2002-repetition-no-result");
  ASSERT_TRUE(both.ok()) << both.status();
  EXPECT_EQ(both->version(), "2002.1");
  EXPECT_EQ(both->params().repetition_preset(), "NO_RESULT");
  EXPECT_EQ(LoadRulesSpec("cn-2002@").status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(Versions, CompareVersionsIsNumericPartByPart) {
  EXPECT_LT(CompareVersions("2002.1", "2002.2"), 0);
  EXPECT_LT(CompareVersions("2002.2", "2002.10"), 0);
  EXPECT_GT(CompareVersions("2002.10", "2002.9"), 0);
  EXPECT_EQ(CompareVersions("2002.1", "2002.01"), 0);
  EXPECT_LT(CompareVersions("1", "1.1"), 0);
  EXPECT_LT(CompareVersions("1.a", "1.b"), 0);
}

TEST(Versions, EveryVersionIsBuiltInOrderedAndTheLatestListed) {
  const RulesData& data = **BuiltinRulesData();
  std::vector<std::string> names;
  for (const v1::Ruleset& r : data.rulesets) names.push_back(r.id() + "@" + r.version());
  EXPECT_EQ(names, (std::vector<std::string>{"cn-1988@1988.1", "cn-1988@1988.2", "cn-1988@1988.3",
                                             "cn-1988@1988.4", "cn-2002@2002.1", "cn-2002@2002.2",
                                             "cn-2002@2002.3", "cn-2002@2002.4", "cn-2002@2002.5",
                                             "cn-2002@2002.6"}));
  absl::StatusOr<std::vector<const v1::Ruleset*>> rulesets = LatestBuiltinRulesets();
  ASSERT_TRUE(rulesets.ok()) << rulesets.status();
  std::vector<std::string> latest;
  for (const v1::Ruleset* r : *rulesets) latest.push_back(r->version());
  EXPECT_EQ(latest, (std::vector<std::string>{"1988.4", "2002.6"}));
}

// The binary carries what the build parsed: the data files under
// rulesdb/data, parsed here as the build parses them, give the same rulesets
// and supplements, byte for byte in their canonical encoding; and each
// version is found by its own content hash.
TEST(Versions, TheBuiltInDataIsWhatTheFilesSay) {
  std::vector<DataFile> files;
  const std::filesystem::path root = testing::SourcePath("rulesdb/data");
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
    if (entry.path().extension() != ".textproto") continue;
    files.push_back({entry.path().lexically_relative(root).generic_string(),
                     testing::ReadFile(entry.path().string())});
  }
  absl::StatusOr<RulesData> parsed = ParseRulesData(files);
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  const RulesData& built_in = **BuiltinRulesData();
  ASSERT_EQ(built_in.rulesets.size(), parsed->rulesets.size());
  for (size_t i = 0; i < parsed->rulesets.size(); ++i) {
    const v1::Ruleset& r = built_in.rulesets[i];
    EXPECT_EQ(CanonicalBytes(r), CanonicalBytes(parsed->rulesets[i]))
        << r.id() << "@" << r.version();
    absl::StatusOr<const v1::Ruleset*> by_hash = BuiltinRulesetByHash(ContentHash(r));
    ASSERT_TRUE(by_hash.ok()) << by_hash.status();
    EXPECT_EQ(*by_hash, &r);
  }
  ASSERT_EQ(built_in.supplements.size(), parsed->supplements.size());
  for (size_t i = 0; i < parsed->supplements.size(); ++i) {
    EXPECT_EQ(CanonicalBytes(built_in.supplements[i]), CanonicalBytes(parsed->supplements[i]))
        << parsed->supplements[i].id();
  }
}

TEST(Versions, DataLivesUnderItsIdAndVersion) {
  const std::string header =
      "id: \"x\" version: \"1\" parameters { late_deduction_multiplier: 1 "
      "warnings_for_loss: 2 } articles { number: 1 id: \"x/1\" "
      "title_en: \"T\" text_zh: \"文\" }";
  EXPECT_TRUE(ParseRulesData({{"x/1/ruleset.textproto", header}}).ok());
  absl::StatusOr<RulesData> flat = ParseRulesData({{"x/ruleset.textproto", header}});
  EXPECT_EQ(flat.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(flat.status().message().find("<ruleset-id>/<version>/NAME"), std::string_view::npos);
  absl::StatusOr<RulesData> wrong = ParseRulesData({{"x/2/ruleset.textproto", header}});
  EXPECT_EQ(wrong.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(wrong.status().message().find("must match"), std::string_view::npos);
}

// The pin a ledger records names the version the game was created under;
// loading it gives those rules after newer versions exist.
TEST(Versions, ALedgersPinLoadsThePinnedVersion) {
  const std::string pin = RulesPin(*LoadRulesVersion("cn-2002", "2002.1"));
  EXPECT_EQ(pin, std::string("cn-2002 sha256:") + kCn2002First);
  absl::StatusOr<Rules> rules = LoadPinnedRules(pin);
  ASSERT_TRUE(rules.ok()) << rules.status();
  EXPECT_EQ(rules->version(), "2002.1");
  const std::string with = RulesPin(*LoadRulesVersion("cn-1988", "1988.1", "cn-1988-late-30min"));
  EXPECT_NE(with.find(" + cn-1988-late-30min sha256:"), std::string::npos) << with;
  absl::StatusOr<Rules> both = LoadPinnedRules(with);
  ASSERT_TRUE(both.ok()) << both.status();
  EXPECT_EQ(both->version(), "1988.1");
  EXPECT_EQ(both->supplement_id(), "cn-1988-late-30min");
  EXPECT_EQ(RulesPin(*both), with);
}

TEST(Versions, BadPinsAreRefusedSayingWhy) {
  EXPECT_EQ(LoadPinnedRules("cn-2002").status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(LoadPinnedRules("cn-2002 md5:00").status().code(), absl::StatusCode::kInvalidArgument);
  // The pin built up front: with the test's headers precompiled (-DARBITER_PCH=ON), g++ 12 at -O1
  // takes the temporary `string + string(64, 'b')` for an out-of-bounds memcpy (-Warray-bounds).
  const std::string unknown = "cn-2002 sha256:" + std::string(64, 'b');
  EXPECT_EQ(LoadPinnedRules(unknown).status().code(), absl::StatusCode::kNotFound);
  // The hash is cn-1988's.
  EXPECT_EQ(LoadPinnedRules(std::string("cn-2002 sha256:") + kCn1988First).status().code(),
            absl::StatusCode::kNotFound);
  // A supplement whose content is no longer the pinned one.
  const std::string stale = std::string("cn-1988 sha256:") + kCn1988First +
                            " + cn-1988-late-30min sha256:" + std::string(64, 'c');
  EXPECT_EQ(LoadPinnedRules(stale).status().code(), absl::StatusCode::kFailedPrecondition);
}

}  // namespace
}  // namespace arbiter
