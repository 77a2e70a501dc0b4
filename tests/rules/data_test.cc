// The built-in data: verbatim texts, complete articles, our English, and the
// sanctionings DOMAIN.md §4 requires under both rulesets.
#include <algorithm>
#include <fstream>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "rulesdb/builtin_rules.h"
#include "rulesdb/rules.h"
#include "tests/support/files.h"
#include "tests/support/paths.h"

namespace arbiter {
namespace {

std::string ReadSpec(const std::string& name) {
  return testing::ReadFile(testing::SourcePath("rulesdb/data/texts/" + name));
}

struct Expectation {
  const char* ruleset;
  int articles;
  const char* source;
};

class BuiltinData : public ::testing::TestWithParam<Expectation> {};

// Every built-in version of the expectation's ruleset, oldest first.
std::vector<const v1::Ruleset*> Versions(const std::string& id) {
  std::vector<const v1::Ruleset*> out;
  for (const v1::Ruleset& r : (*BuiltinRulesData())->rulesets) {
    if (r.id() == id) out.push_back(&r);
  }
  return out;
}

TEST_P(BuiltinData, EveryArticleAndClauseIsVerbatimAndExplained) {
  const Expectation& e = GetParam();
  const std::string source = ReadSpec(e.source);
  ASSERT_FALSE(source.empty()) << "cannot read the spec text " << e.source;
  const std::vector<const v1::Ruleset*> versions = Versions(e.ruleset);
  ASSERT_GE(versions.size(), 2u);
  for (const v1::Ruleset* ruleset : versions) {
    SCOPED_TRACE(ruleset->version());
    ASSERT_EQ(ruleset->articles_size(), e.articles);
    int clauses = 0;
    for (int n = 1; n <= e.articles; ++n) {
      const v1::Article& a = ruleset->articles(n - 1);
      EXPECT_EQ(a.number(), n);
      EXPECT_EQ(a.id(), std::string(e.ruleset) + "/" + std::to_string(n));
      EXPECT_FALSE(a.title_en().empty()) << a.id();
      if (!a.text_zh().empty()) {
        EXPECT_NE(source.find(a.text_zh()), std::string::npos) << a.id() << " is not verbatim";
      }
      if (a.clauses().empty()) {
        EXPECT_FALSE(a.text_zh().empty()) << a.id();
        EXPECT_FALSE(a.summary_en().empty()) << a.id();
      }
      for (const v1::Clause& c : a.clauses()) {
        ++clauses;
        EXPECT_NE(source.find(c.text_zh()), std::string::npos) << c.id() << " is not verbatim";
        EXPECT_FALSE(c.title_en().empty()) << c.id();
        EXPECT_FALSE(c.summary_en().empty()) << c.id();
      }
    }
    EXPECT_GT(clauses, 90);
  }
}

TEST_P(BuiltinData, EverySanctionedClauseRecordsItsInterpretation) {
  for (const v1::Ruleset* ruleset : Versions(GetParam().ruleset)) {
    Rules rules = *LoadRulesVersion(ruleset->id(), ruleset->version());
    for (const v1::Sanctioning& s : rules.sanctionings()) {
      const v1::Clause* clause = rules.FindClause(s.clause());
      ASSERT_NE(clause, nullptr) << s.clause();
      EXPECT_FALSE(clause->interpretation().empty())
          << ruleset->version() << " " << s.clause() << " has no interpretation";
    }
  }
}

// DOMAIN.md §4: a ruling whose sanctions include BOTH_LOSE is against both.
// The latest versions say so in every sanctioning and option that can.
TEST_P(BuiltinData, BothLoseIsAgainstBothInTheLatestVersion) {
  Rules rules = *LoadRules(GetParam().ruleset);
  auto both_lose = [](const google::protobuf::RepeatedField<int>& sanctions) {
    return std::find(sanctions.begin(), sanctions.end(), v1::BOTH_LOSE) != sanctions.end();
  };
  int seen = 0;
  for (const v1::Sanctioning& s : rules.sanctionings()) {
    if (both_lose(s.sanctions())) {
      ++seen;
      EXPECT_EQ(s.against(), v1::BOTH_PLAYERS) << s.clause();
    }
    for (const v1::RulingOption& o : s.options()) {
      if (!both_lose(o.sanctions())) continue;
      ++seen;
      EXPECT_TRUE(s.against() == v1::BOTH_PLAYERS || o.against() == v1::Ruling::BOTH)
          << s.clause() << " option " << o.id() << " of " << v1::Incident_Name(s.incident());
    }
  }
  EXPECT_GT(seen, 3);
}

INSTANTIATE_TEST_SUITE_P(Rulesets, BuiltinData,
                         ::testing::Values(Expectation{"cn-2002", 33, "cn-2002-rules.zh.txt"},
                                           Expectation{"cn-1988", 34, "cn-1988-rules.zh.txt"}));

TEST(BuiltinData, ClauseIdsFollowTheSourceNumbering) {
  Rules now = *LoadRules("cn-2002");
  EXPECT_NE(now.FindClause("cn-2002/23.7")->text_zh().find("手机、呼机发出响声"),
            std::string::npos);
  EXPECT_EQ(now.FindClause("cn-2002/17.5.3")->text_zh(), "和棋；");
  EXPECT_NE(now.FindClause("cn-2002/22.2")->text_zh().find("15分钟"), std::string::npos);
  Rules old = *LoadRules("cn-1988");
  // 第十七条 一 -> cn-1988/17.1
  EXPECT_NE(old.FindClause("cn-1988/17.1")->text_zh().find("连走二步者为负"), std::string::npos);
  EXPECT_NE(old.FindClause("cn-1988/25.1")->text_zh().find("裁判法所未包括"), std::string::npos);
  EXPECT_NE(old.FindClause("cn-1988/11")->text_zh().find("二又四分之三"), std::string::npos);
}

// The engine rules by itself on these incidents (DOMAIN.md §4): each must be
// covered, by the clause the table names.
TEST(BuiltinData, SanctioningsCoverTheDomainTable) {
  using v1::GameCreated;
  struct Row {
    v1::Incident incident;
    int occurrence;
    const char* cn2002;
    const char* cn1988;
  };
  const Row rows[] = {
      {v1::DOUBLE_MOVE, 1, "17.2", "17.1"},
      {v1::TAKEBACK, 1, "17.3", "17.2"},
      {v1::EARLY_CLOCK_PRESS, 1, "17.4", "25.1"},
      {v1::CAPTURES_NOT_CLEARED, 1, "22.6", "23.4"},
      {v1::CAPTURE_REMOVED_LIVE, 1, "18.1", "18"},
      {v1::CAPTURE_NOT_REMOVED, 1, "18.2", "25.1"},
      {v1::KO_RECAPTURE, 1, "18.3", "20.1"},
      {v1::OTHER_REPETITION, 1, "20.3", "20.3"},
      {v1::SUICIDE, 1, "19", "19"},
      {v1::PHONE_RANG, 1, "23.7", "25.1"},
      {v1::PHONE_RANG, 2, "23.7", "25.1"},
      {v1::PHONE_VIEWED, 1, "23.7", "25.1"},
      {v1::SMOKING, 1, "23.8", "25.1"},
      {v1::SMOKING, 2, "23.8", "25.1"},
      {v1::MISCONDUCT_DISTURBANCE, 1, "23.3", "24.2"},
      {v1::MISCONDUCT_DISCUSSION, 1, "23.4", "24.3"},
      {v1::MISCONDUCT_TALK, 1, "23.5", "24.3"},
      {v1::MISCONDUCT_CHEATING, 1, "23.1", "25.1"},
      {v1::WARNINGS_ACCUMULATED, 1, "24.2", "25.2"},
      {v1::LATE_WITHIN_LIMIT, 1, "22.2", "23.3"},
      {v1::LATE_BEYOND_LIMIT, 1, "22.2", "23.1"},
      {v1::BOTH_LATE_BEYOND_LIMIT, 1, "22.3", "23.2"},
      {v1::TIME_EXPIRED, 1, "22.5", "23.5"},
      {v1::TIME_EXPIRED_NO_OVERTIME, 1, "12.4", "23.5"},
      {v1::TIME_EXPIRED_PASS_REQUESTED, 1, "22.5", "23.5"},
      {v1::STONES_DISPLACED_DISPUTED, 1, "17.5", "17.3"},
      {v1::STONES_DISPLACED_DELIBERATE, 1, "17.5", "17.3"},
      {v1::BOARD_SCATTERED_DISPUTED, 1, "17.6", "17.4"},
      {v1::BOARD_SCATTERED_BY_PLAYER, 1, "17.6", "17.4"},
      // Issue 14: what the articles say that the first versions did not encode.
      {v1::BOARD_SCATTERED_DELIBERATE, 1, "30.6", "17.4"},
      {v1::MISCONDUCT_WALKOUT, 1, "30.6", "24.1"},
      {v1::SEALED_MOVE_OCCUPIED, 1, "14", "22"},
      {v1::SEAT_LEAVE_PERMITTED, 2, "22.7", "23.6"},
      {v1::LEFT_SEAT_UNPERMITTED, 1, "22.7", "23.6"},
      {v1::TIME_WASTING, 1, "12.4.7", "25.1"},
      {v1::WITHDRAWAL, 1, "23.2", "25.1"},
      {v1::UNCOVERED_VIOLATION, 1, "30.6", "25.1"},
      {v1::RESIGNED, 1, "7.2", "7.2"},
      {v1::COUNTED, 1, "9", "9"},
  };
  Rules now = *LoadRules("cn-2002");
  Rules old = *LoadRules("cn-1988");
  for (const Row& row : rows) {
    const char* name = v1::Incident_Name(row.incident).c_str();
    const v1::Sanctioning* a = now.Find(row.incident, row.occurrence, GameCreated::SAME_SITE);
    const v1::Sanctioning* b = old.Find(row.incident, row.occurrence, GameCreated::SAME_SITE);
    ASSERT_NE(a, nullptr) << name;
    ASSERT_NE(b, nullptr) << name;
    EXPECT_EQ(a->clause(), std::string("cn-2002/") + row.cn2002) << name;
    EXPECT_EQ(b->clause(), std::string("cn-1988/") + row.cn1988) << name;
  }
  // And those only cn-2002 has a clause for.
  const std::pair<v1::Incident, const char*> only2002[] = {
      {v1::STONE_DROPPED_DISPUTED, "17.3"}, {v1::FIRST_HALF_UNRECORDED, "22.9"},
      {v1::CONTEST_ABANDONED, "12.4.4"},    {v1::CLOCK_FAILED_ABSOLUTE, "12.4.6"},
      {v1::WRONG_COLORS_CORRECTED, "17.1"}, {v1::CLOCK_MALFUNCTION_PRORATED, "22.8"}};
  for (const auto& [incident, clause] : only2002) {
    const v1::Sanctioning* a = now.Find(incident, 1, GameCreated::SAME_SITE);
    ASSERT_NE(a, nullptr) << v1::Incident_Name(incident);
    EXPECT_EQ(a->clause(), std::string("cn-2002/") + clause);
    EXPECT_EQ(old.Find(incident, 1, GameCreated::SAME_SITE), nullptr)
        << v1::Incident_Name(incident);
  }
  // 22.4 only in RAPID: elsewhere an absent player's flag is an ordinary flag fall.
  ASSERT_NE(now.Find(v1::TIME_EXPIRED_WHILE_ABSENT, 1, GameCreated::RAPID), nullptr);
  EXPECT_EQ(now.Find(v1::TIME_EXPIRED_WHILE_ABSENT, 1, GameCreated::RAPID)->clause(),
            "cn-2002/22.4");
  EXPECT_EQ(now.Find(v1::TIME_EXPIRED_WHILE_ABSENT, 1, GameCreated::SAME_SITE), nullptr);
}

TEST(BuiltinData, WarningsCarryPenaltyStonesOnlyIn2002) {
  for (const char* id : {"cn-2002", "cn-1988"}) {
    Rules rules = *LoadRules(id);
    for (const v1::Sanctioning& s : rules.sanctionings()) {
      std::set<int> sanctions(s.sanctions().begin(), s.sanctions().end());
      if (!sanctions.contains(v1::WARNING)) continue;
      EXPECT_EQ(sanctions.contains(v1::PENALTY_STONE), std::string(id) == "cn-2002")
          << id << " " << s.clause();
    }
  }
}

}  // namespace
}  // namespace arbiter
