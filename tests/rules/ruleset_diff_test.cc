// RulesetDiff: cn-1988 -> cn-2002 shows the differences an arbiter expects.
#include "rulesdb/ruleset_diff.h"

#include "gtest/gtest.h"

namespace arbiter {
namespace {

const RulesetDiff::Sanction* Find(const RulesetDiff& diff, v1::Incident incident,
                                  int occurrence = 1) {
  for (const RulesetDiff::Sanction& s : diff.sanctions) {
    if (s.incident == incident && s.occurrence == occurrence) return &s;
  }
  return nullptr;
}

std::string Parameter(const RulesetDiff& diff, const std::string& name) {
  for (const RulesetDiff::Parameter& p : diff.parameters) {
    if (p.name == name) return p.before + " -> " + p.after;
  }
  return "";
}

TEST(RulesetDiff, From1988To2002) {
  const RulesetDiff diff = DiffRules(*LoadRules("cn-1988"), *LoadRules("cn-2002"));
  EXPECT_EQ(Parameter(diff, "komi_quarters"), "2¾ stones -> 3¾ stones");
  EXPECT_EQ(Parameter(diff, "late_deduction_multiplier"), "1 -> 2");
  EXPECT_EQ(Parameter(diff, "pass_on_timeout"), "false -> true");
  EXPECT_EQ(Parameter(diff, "penalty_stone_per_warning"), "false -> true");

  const RulesetDiff::Sanction* double_move = Find(diff, v1::DOUBLE_MOVE);
  ASSERT_NE(double_move, nullptr);
  EXPECT_EQ(double_move->kind, RulesetDiff::Sanction::kChanged);
  EXPECT_EQ(double_move->before, "cn-1988/17.1 LOSS [VIOLATION]");
  EXPECT_EQ(double_move->after, "cn-2002/17.2 MOVE_VOID+WARNING+PENALTY_STONE");

  const RulesetDiff::Sanction* phone = Find(diff, v1::PHONE_RANG);
  ASSERT_NE(phone, nullptr);
  EXPECT_EQ(phone->after, "cn-2002/23.7 WARNING+PENALTY_STONE");
  EXPECT_EQ(phone->before.rfind("cn-1988/25.1 REFERRED", 0), 0u) << phone->before;
  const RulesetDiff::Sanction* second_ring = Find(diff, v1::PHONE_RANG, 2);
  ASSERT_NE(second_ring, nullptr);
  EXPECT_EQ(second_ring->after, "cn-2002/23.7 LOSS [DISCIPLINE]");
  ASSERT_NE(Find(diff, v1::SMOKING), nullptr);
  EXPECT_EQ(Find(diff, v1::SMOKING)->after, "cn-2002/23.8 WARNING+PENALTY_STONE");

  // Lateness: one 1988 clause for all venues becomes two by venue; rapid
  // play loses its forfeit.
  int lateness_lines = 0;
  for (const RulesetDiff::Sanction& s : diff.sanctions) {
    if (s.incident != v1::LATE_BEYOND_LIMIT) continue;
    ++lateness_lines;
    if (s.venues == "RAPID") {
      EXPECT_EQ(s.kind, RulesetDiff::Sanction::kRemoved);
    } else if (s.venues == "SAME_SITE") {
      EXPECT_EQ(s.after, "cn-2002/22.2 LOSS [LATENESS]");
    }
  }
  EXPECT_EQ(lateness_lines, 3);

  const RulesetDiff::Sanction* warnings = Find(diff, v1::WARNINGS_ACCUMULATED);
  ASSERT_NE(warnings, nullptr);
  EXPECT_EQ(warnings->kind, RulesetDiff::Sanction::kMoved);  // 25.2 -> 24.2, same loss

  bool phone_clause_added = false;
  for (const RulesetDiff::Clause& c : diff.clauses) {
    phone_clause_added |= c.number == "23.7" && c.kind == RulesetDiff::Clause::kAdded;
  }
  EXPECT_TRUE(phone_clause_added);
}

TEST(RulesetDiff, SameRulesetHasNoDifferences) {
  const RulesetDiff diff = DiffRules(*LoadRules("cn-2002"), *LoadRules("cn-2002"));
  EXPECT_TRUE(diff.parameters.empty());
  EXPECT_TRUE(diff.sanctions.empty());
  EXPECT_TRUE(diff.clauses.empty());
}

TEST(RulesetDiff, SupplementChangesShow) {
  const RulesetDiff diff =
      DiffRules(*LoadRules("cn-2002"), *LoadRules("cn-2002", "cn-2002-rapid-no-pass"));
  EXPECT_EQ(Parameter(diff, "pass_on_timeout"), "true -> false");
  EXPECT_EQ(Parameter(diff, "repetition_preset"), "\"\" -> \"REPLAY\"");
}

}  // namespace
}  // namespace arbiter
