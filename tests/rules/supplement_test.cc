// Supplements (竞赛补充规定): named, versioned, hashed overlays on a ruleset.
#include "gtest/gtest.h"
#include "rulesdb/builtin_rules.h"
#include "rulesdb/rules.h"

namespace arbiter {
namespace {

using v1::GameCreated;

TEST(Supplement, PresetsTheRepetitionRuling) {
  absl::StatusOr<Rules> rules = LoadRules("cn-2002", "cn-2002-repetition-no-result");
  ASSERT_TRUE(rules.ok()) << rules.status();
  EXPECT_EQ(rules->params().repetition_preset(), "NO_RESULT");
  EXPECT_EQ(rules->supplement_id(), "cn-2002-repetition-no-result");
  EXPECT_EQ(rules->supplement_hash().size(), 64u);
  // The base is untouched: same ruleset hash, other parameters as before.
  Rules base = *LoadRules("cn-2002");
  EXPECT_EQ(rules->hash(), base.hash());
  EXPECT_EQ(rules->params().komi_quarters(), 15);
  EXPECT_TRUE(base.params().repetition_preset().empty());
}

TEST(Supplement, SetsThe1988LatenessLimit) {
  Rules rules = *LoadRules("cn-1988", "cn-1988-late-30min");
  EXPECT_EQ(rules.params().late_limit_same_site().seconds(), 1800);
  EXPECT_EQ(rules.params().late_limit_separate_site().seconds(), 1800);
  EXPECT_EQ(rules.params().late_deduction_multiplier(), 1);
}

TEST(Supplement, OverridesPassOnTimeout) {
  Rules rules = *LoadRules("cn-2002", "cn-2002-rapid-no-pass");
  EXPECT_FALSE(rules.params().pass_on_timeout());
  EXPECT_EQ(rules.params().repetition_preset(), "REPLAY");
}

TEST(Supplement, MustMatchItsBase) {
  absl::StatusOr<Rules> rules = LoadRules("cn-1988", "cn-2002-repetition-no-result");
  EXPECT_EQ(rules.status().code(), absl::StatusCode::kInvalidArgument);
  v1::Supplement supplement = **BuiltinSupplement("cn-1988-late-30min");
  EXPECT_FALSE(Rules::FromProto(**BuiltinRuleset("cn-2002"), &supplement).ok());
}

TEST(Supplement, KomiAndSanctioningsOverlayTheBase) {
  v1::Supplement supplement;
  supplement.set_id("strict-phones");
  supplement.set_version("1");
  supplement.set_base_ruleset("cn-2002");
  supplement.mutable_overrides()->set_komi_quarters(13);
  v1::Sanctioning* loss = supplement.add_sanctionings();
  loss->set_incident(v1::PHONE_RANG);
  loss->set_occurrence(1);
  loss->set_clause("cn-2002/23.7");
  loss->set_against(v1::OFFENDER);
  loss->add_sanctions(v1::LOSS);
  loss->set_reason(v1::Result::DISCIPLINE);
  absl::StatusOr<Rules> rules = Rules::FromProto(**BuiltinRuleset("cn-2002"), &supplement);
  ASSERT_TRUE(rules.ok()) << rules.status();
  EXPECT_EQ(rules->params().komi_quarters(), 13);
  const v1::Sanctioning* first = rules->Find(v1::PHONE_RANG, 1, GameCreated::SAME_SITE);
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(first->sanctions(0), v1::LOSS);
  // The supplement hash covers its content.
  std::string hash = rules->supplement_hash();
  supplement.mutable_overrides()->set_komi_quarters(14);
  EXPECT_NE(Rules::FromProto(**BuiltinRuleset("cn-2002"), &supplement)->supplement_hash(), hash);
}

TEST(Supplement, PresetMustBeAnOption) {
  v1::Supplement supplement;
  supplement.set_id("bad");
  supplement.set_version("1");
  supplement.set_base_ruleset("cn-1988");
  supplement.mutable_overrides()->set_repetition_preset("NO_RESULT");  // 1988: DRAW or REPLAY
  EXPECT_FALSE(Rules::FromProto(**BuiltinRuleset("cn-1988"), &supplement).ok());
  supplement.mutable_overrides()->set_repetition_preset("DRAW");
  EXPECT_TRUE(Rules::FromProto(**BuiltinRuleset("cn-1988"), &supplement).ok());
}

}  // namespace
}  // namespace arbiter
