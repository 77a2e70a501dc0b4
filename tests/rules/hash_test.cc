// Content hashes: stable for the same content, new for any change, and
// independent of how the text data happens to be laid out.
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "rulesdb/builtin_rules.h"
#include "rulesdb/content_hash.h"
#include "rulesdb/rules.h"
#include "rulesdb/rules_data.h"
#include "rulesdb/rules_text.h"
#include "tests/support/files.h"
#include "tests/support/paths.h"

namespace arbiter {
namespace {

// A small ruleset fixed in this test, so its golden hash never moves with
// the built-in data.
constexpr char kTiny[] = R"pb(
  id: "tiny"
  version: "1"
  parameters { komi_quarters: 15 warnings_for_loss: 2 late_deduction_multiplier: 2 }
  articles {
    number: 1
    id: "tiny/1"
    title_en: "Phones"
    clauses {
      id: "tiny/1.1"
      text_zh: "手机响一次警告"
      title_en: "Ring"
      summary_en: "A ring is warned."
    }
  }
  sanctionings {
    incident: PHONE_RANG
    clause: "tiny/1.1"
    against: OFFENDER
    sanctions: [ WARNING, PENALTY_STONE ]
  }
)pb";

// The same content, fields in another order and laid out differently.
constexpr char kTinyReordered[] = R"pb(
  sanctionings {
    sanctions: WARNING
    sanctions: PENALTY_STONE
    against: OFFENDER
    clause: "tiny/1.1"
    incident: PHONE_RANG
  }
  articles {
    clauses {
      summary_en: "A ring is warned."
      title_en: "Ring"
      text_zh: "手机响一次警告"
      id: "tiny/1.1"
    }
    title_en: "Phones"
    id: "tiny/1"
    number: 1
  }
  parameters { late_deduction_multiplier: 2 warnings_for_loss: 2 komi_quarters: 15 }
  version: "1"
  id: "tiny"
)pb";

v1::Ruleset Parse(const char* text) {
  v1::Ruleset ruleset;
  absl::Status st = MergeRulesText("test", text, &ruleset);
  EXPECT_TRUE(st.ok()) << st;
  return ruleset;
}

TEST(ContentHash, GoldenValueIsStableAcrossBuilds) {
  // SHA-256 over the deterministic serialization: if this changes, every
  // pinned game hash would change with it.
  EXPECT_EQ(ContentHash(Parse(kTiny)),
            "5fc6588b98aeef2de0d48becefd8a34ba565fc79763824ce1755abdb13cc1b23");
}

TEST(ContentHash, LayoutAndFieldOrderDoNotMatter) {
  EXPECT_EQ(ContentHash(Parse(kTiny)), ContentHash(Parse(kTinyReordered)));
}

TEST(ContentHash, AnyChangeGivesANewHash) {
  const std::string base = ContentHash(Parse(kTiny));
  v1::Ruleset changed = Parse(kTiny);
  changed.mutable_parameters()->set_komi_quarters(11);
  EXPECT_NE(ContentHash(changed), base);
  changed = Parse(kTiny);
  changed.mutable_articles(0)->mutable_clauses(0)->set_summary_en("A ring is warned!");
  EXPECT_NE(ContentHash(changed), base);
  changed = Parse(kTiny);
  changed.mutable_sanctionings(0)->set_occurrence(2);
  EXPECT_NE(ContentHash(changed), base);
  changed = Parse(kTiny);
  changed.set_version("2");
  EXPECT_NE(ContentHash(changed), base);
}

TEST(ContentHash, RulesExposeTheHashOfTheirRuleset) {
  absl::StatusOr<Rules> rules = Rules::FromProto(Parse(kTiny));
  ASSERT_TRUE(rules.ok()) << rules.status();
  EXPECT_EQ(rules->hash(), ContentHash(Parse(kTiny)));
  // Loading twice, or through a copy, gives the same hash.
  EXPECT_EQ(LoadRules("cn-2002")->hash(), LoadRules("cn-2002")->hash());
  EXPECT_EQ(LoadRules("cn-2002")->hash(), ContentHash(**BuiltinRuleset("cn-2002")));
  EXPECT_NE(LoadRules("cn-2002")->hash(), LoadRules("cn-1988")->hash());
}

// The published built-in versions. Changing the data of a published version
// must fail here: give the change a new `version` and update these.
TEST(ContentHash, BuiltinRulesetsArePinned) {
  EXPECT_EQ(LoadRulesVersion("cn-2002", "2002.1")->hash(),
            "8652fada6c5ef3b153b24fda2f331db0c0c5d042202886bd0e93445f8da37ddf");
  EXPECT_EQ(LoadRulesVersion("cn-1988", "1988.1")->hash(),
            "bd474d7c2ecccf6da426388462c4e72f27f58bd4de1d14c2bb5405ffef7335a9");
  EXPECT_EQ(LoadRulesVersion("cn-2002", "2002.2")->hash(),
            "4396518db6f975f4cc5c3b7c96e4da58322e1c38ab1fce9d71348cf1192f97d0");
  EXPECT_EQ(LoadRulesVersion("cn-1988", "1988.2")->hash(),
            "dbb3d05ca8337278d0f0d1b688b3bbd407fb790c27b788b3e744188d63903118");
  EXPECT_EQ(LoadRulesVersion("cn-2002", "2002.4")->hash(),
            "5b914f039a5334e50ba66828f2cb573566d7719144fb84661508afd5d68a1f70");
  EXPECT_EQ(LoadRulesVersion("cn-2002", "2002.5")->hash(),
            "6e874975a82605375046068c00ac0f5c815319c41bba75a91ff75207261f5ce6");
  EXPECT_EQ(LoadRulesVersion("cn-1988", "1988.3")->hash(),
            "fa63a1b7de1b21710dc3b3d1fda7507fad339916881b5e8d3fa3eaf782e2953f");
  EXPECT_EQ(LoadRulesVersion("cn-2002", "2002.6")->hash(),
            "b8e9b3a3bb5aa290eb8b32a51b67498361b439ab1031af5e5b99b6837ed2a442");
  EXPECT_EQ(LoadRulesVersion("cn-1988", "1988.4")->hash(),
            "efa517663b7ec682370cb69cabbb66e1d89bc66d0b0b1fded8934cc9809493e8");
}

std::string ReadPublished() {
  return testing::ReadFile(testing::SourcePath("rulesdb/data/PUBLISHED"));
}

TEST(Published, EveryBuiltinVersionIsPublishedWithItsHash) {
  const std::string manifest = ReadPublished();
  ASSERT_FALSE(manifest.empty());
  EXPECT_TRUE(CheckPublished(**BuiltinRulesData(), manifest, "PUBLISHED").ok());
  EXPECT_NE(
      manifest.find("ruleset cn-2002 2002.1 " + LoadRulesVersion("cn-2002", "2002.1")->hash()),
      std::string::npos);
  EXPECT_NE(manifest.find("ruleset cn-2002 2002.6 " + LoadRules("cn-2002")->hash()),
            std::string::npos);
}

TEST(Published, AChangedVersionIsRefused) {
  RulesData data = **BuiltinRulesData();
  data.rulesets[0].mutable_articles(0)->set_summary_en("edited");
  absl::Status st = CheckPublished(data, ReadPublished(), "PUBLISHED");
  EXPECT_EQ(st.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(st.message().find("new version"), absl::string_view::npos) << st;
  // ...until it is a new version with its own line.
  data.rulesets[0].set_version("next");
  const std::string line = absl::StrCat("ruleset ", data.rulesets[0].id(), " next ",
                                        ContentHash(data.rulesets[0]), "\n");
  EXPECT_TRUE(CheckPublished(data, ReadPublished() + line, "PUBLISHED").ok());
}

TEST(Published, MalformedManifestLinesAreErrors) {
  absl::Status st = CheckPublished(**BuiltinRulesData(), "# c\nruleset cn-2002 x\n", "P");
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(st.message().find("P:2:"), absl::string_view::npos) << st;
}

TEST(RulesText, SyntaxErrorsNameFileLineAndColumn) {
  v1::Ruleset ruleset;
  absl::Status st = MergeRulesText("cn-2002/ruleset.textproto",
                                   "id: \"x\"\nparameters {\n  komi: 15\n}\n", &ruleset);
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(st.message().find("cn-2002/ruleset.textproto:3:"), absl::string_view::npos) << st;
  EXPECT_NE(st.message().find("komi"), absl::string_view::npos) << st;
}

TEST(Validate, RejectsInconsistentData) {
  v1::Ruleset bad = Parse(kTiny);
  bad.mutable_sanctionings(0)->set_clause("tiny/9");
  EXPECT_EQ(Rules::FromProto(bad).status().code(), absl::StatusCode::kInvalidArgument);
  bad = Parse(kTiny);
  *bad.add_sanctionings() = bad.sanctionings(0);  // two entries for one key
  EXPECT_FALSE(Rules::FromProto(bad).ok());
  bad = Parse(kTiny);
  bad.mutable_sanctionings(0)->add_sanctions(v1::LOSS);  // ends the game, no reason
  EXPECT_FALSE(Rules::FromProto(bad).ok());
  bad = Parse(kTiny);
  bad.mutable_sanctionings(0)->add_options()->set_id("LOSS");  // options, no decided_by
  EXPECT_FALSE(Rules::FromProto(bad).ok());
  bad = Parse(kTiny);
  bad.set_id("tiny+x");  // ids must be plain
  EXPECT_FALSE(Rules::FromProto(bad).ok());
  bad = Parse(kTiny);
  bad.mutable_parameters()->set_repetition_preset("DRAW");  // not an option of any 20.3
  EXPECT_FALSE(Rules::FromProto(bad).ok());
}

}  // namespace
}  // namespace arbiter
