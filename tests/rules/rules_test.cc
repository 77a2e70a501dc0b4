// Rules: loading the built-in rulesets and finding sanctionings.
#include "rulesdb/rules.h"

#include "gtest/gtest.h"

namespace arbiter {
namespace {

using v1::GameCreated;

std::vector<int> Sanctions(const v1::Sanctioning* s) {
  return std::vector<int>(s->sanctions().begin(), s->sanctions().end());
}

TEST(LoadRules, BuiltinRulesetsLoad) {
  for (const char* id : {"cn-2002", "cn-1988"}) {
    absl::StatusOr<Rules> rules = LoadRules(id);
    ASSERT_TRUE(rules.ok()) << rules.status();
    EXPECT_EQ(rules->id(), id);
    EXPECT_EQ(rules->hash().size(), 64u);
    EXPECT_TRUE(rules->supplement_id().empty());
  }
}

TEST(LoadRules, UnknownIdsAreNotFound) {
  absl::StatusOr<Rules> rules = LoadRules("cn-1999");
  EXPECT_EQ(rules.status().code(), absl::StatusCode::kNotFound);
  EXPECT_NE(rules.status().message().find("cn-1999"), std::string_view::npos);
  EXPECT_EQ(LoadRules("cn-2002", "no-such-supplement").status().code(),
            absl::StatusCode::kNotFound);
}

TEST(Find, PhoneEscalatesFromWarningToLoss) {
  Rules rules = *LoadRules("cn-2002");
  const v1::Sanctioning* first = rules.Find(v1::PHONE_RANG, 1, GameCreated::SAME_SITE);
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(first->clause(), "cn-2002/23.7");
  EXPECT_EQ(Sanctions(first), (std::vector<int>{v1::WARNING, v1::PENALTY_STONE}));
  // 0 counts as the first occurrence.
  EXPECT_EQ(rules.Find(v1::PHONE_RANG, 0, GameCreated::SAME_SITE), first);
  for (int n : {2, 3, 7}) {
    const v1::Sanctioning* later = rules.Find(v1::PHONE_RANG, n, GameCreated::SAME_SITE);
    ASSERT_NE(later, nullptr);
    EXPECT_EQ(Sanctions(later), (std::vector<int>{v1::LOSS}));
    EXPECT_EQ(later->reason(), v1::Result::DISCIPLINE);
  }
  const v1::Sanctioning* viewed = rules.Find(v1::PHONE_VIEWED, 1, GameCreated::SAME_SITE);
  ASSERT_NE(viewed, nullptr);
  EXPECT_EQ(Sanctions(viewed), (std::vector<int>{v1::LOSS}));
}

TEST(Find, LatenessClauseDependsOnVenue) {
  Rules rules = *LoadRules("cn-2002");
  EXPECT_EQ(rules.Find(v1::LATE_WITHIN_LIMIT, 1, GameCreated::SEPARATE_SITE)->clause(),
            "cn-2002/22.1");
  EXPECT_EQ(rules.Find(v1::LATE_WITHIN_LIMIT, 1, GameCreated::SAME_SITE)->clause(), "cn-2002/22.2");
  EXPECT_EQ(rules.Find(v1::LATE_BEYOND_LIMIT, 1, GameCreated::SAME_SITE)->reason(),
            v1::Result::LATENESS);
  // 22.4: in rapid play the absent player's clock runs; nothing forfeits.
  EXPECT_EQ(rules.Find(v1::LATE_BEYOND_LIMIT, 1, GameCreated::RAPID), nullptr);
  // cn-1988 has one lateness clause for every venue.
  Rules old = *LoadRules("cn-1988");
  EXPECT_EQ(old.Find(v1::LATE_BEYOND_LIMIT, 1, GameCreated::SAME_SITE)->clause(), "cn-1988/23.1");
}

TEST(Find, DiscretionaryClausesArePendingWithOptions) {
  Rules rules = *LoadRules("cn-2002");
  const v1::Sanctioning* displaced =
      rules.Find(v1::STONES_DISPLACED_DISPUTED, 1, GameCreated::SAME_SITE);
  ASSERT_NE(displaced, nullptr);
  EXPECT_EQ(displaced->clause(), "cn-2002/17.5");
  EXPECT_EQ(displaced->decided_by(), v1::CHIEF_ARBITER);
  std::vector<std::string> ids;
  for (const v1::RulingOption& o : displaced->options()) ids.push_back(o.id());
  EXPECT_EQ(ids,
            (std::vector<std::string>{"STONE_RESTORED", "STANDS", "DRAW", "REPLAY", "BOTH_LOSE"}));
  const v1::Sanctioning* repetition = rules.Find(v1::OTHER_REPETITION, 1, GameCreated::SAME_SITE);
  ASSERT_NE(repetition, nullptr);
  EXPECT_EQ(repetition->options(0).id(), "MOVE_VOID+COUNTS_AS_PASS");
  EXPECT_TRUE(rules.params().repetition_preset().empty());
}

TEST(Find, Cn1988RefersWhatItDoesNotCover) {
  Rules rules = *LoadRules("cn-1988");
  for (v1::Incident incident : {v1::PHONE_RANG, v1::PHONE_VIEWED, v1::SMOKING,
                                v1::EARLY_CLOCK_PRESS, v1::CAPTURE_NOT_REMOVED}) {
    const v1::Sanctioning* s = rules.Find(incident, 1, GameCreated::SAME_SITE);
    ASSERT_NE(s, nullptr) << v1::Incident_Name(incident);
    EXPECT_EQ(s->clause(), "cn-1988/25.1");
    EXPECT_EQ(Sanctions(s), (std::vector<int>{v1::REFERRED}));
    EXPECT_FALSE(s->options().empty());
    EXPECT_EQ(s->decided_by(), v1::ARBITER);
  }
  const v1::Sanctioning* double_move = rules.Find(v1::DOUBLE_MOVE, 1, GameCreated::SAME_SITE);
  EXPECT_EQ(Sanctions(double_move), (std::vector<int>{v1::LOSS}));
  EXPECT_EQ(double_move->reason(), v1::Result::VIOLATION);
}

TEST(Params, BuiltinParameters) {
  Rules now = *LoadRules("cn-2002");
  EXPECT_EQ(now.params().komi_quarters(), 15);
  EXPECT_EQ(now.params().late_limit_same_site().seconds(), 900);
  EXPECT_EQ(now.params().late_limit_separate_site().seconds(), 3600);
  EXPECT_EQ(now.params().late_deduction_multiplier(), 2);
  EXPECT_TRUE(now.params().byo_yomi_exact_period_counts());
  EXPECT_TRUE(now.params().pass_on_timeout());
  EXPECT_EQ(now.params().warnings_for_loss(), 2);
  EXPECT_EQ(now.params().wrong_colors_correctable_moves(), 10);
  EXPECT_EQ(now.params().clock_error_tolerance_per_hour().seconds(), 120);
  Rules old = *LoadRules("cn-1988");
  EXPECT_EQ(old.params().komi_quarters(), 11);
  EXPECT_EQ(old.params().late_deduction_multiplier(), 1);
  EXPECT_FALSE(old.params().pass_on_timeout());
  EXPECT_EQ(old.params().late_limit_same_site().seconds(), 900);
}

TEST(FindClause, ClausesAndArticles) {
  Rules rules = *LoadRules("cn-2002");
  const v1::Clause* phone = rules.FindClause("cn-2002/23.7");
  ASSERT_NE(phone, nullptr);
  EXPECT_NE(phone->text_zh().find("手机"), std::string::npos);
  const v1::Clause* article = rules.FindClause("cn-2002/19");
  ASSERT_NE(article, nullptr);
  EXPECT_NE(article->text_zh().find("禁着点"), std::string::npos);
  EXPECT_NE(rules.FindClause("cn-2002/17.5.3"), nullptr);
  EXPECT_EQ(rules.FindClause("cn-2002/99"), nullptr);
  EXPECT_EQ(rules.FindClause("cn-1988/17.1"), nullptr);
}

}  // namespace
}  // namespace arbiter
