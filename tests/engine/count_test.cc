// The end by two passes and the count (arts. 8, 9, 11): dead stones, komi
// (the ruleset's, or the game's own), penalty stones, and the result's
// figures and SGF value.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "adjudicator/engine/point.h"
#include "gtest/gtest.h"
#include "tests/engine/engine_test_util.h"

namespace arbiter::testing {
namespace {

// A setup where Black's area is exactly 171 + k points: Black owns columns
// A-J fully plus k rows of column K (walls of stones along the border).
std::string WallSetup(int k, const std::vector<std::string>& extra_white = {}) {
  std::vector<std::string> black, white;
  for (int row = 1; row <= 19; ++row) {
    const int black_column = row <= k ? 9 : 8;
    black.push_back(PointName(VertexAt(black_column, row, 19), 19));
    white.push_back(PointName(VertexAt(black_column + 1, row, 19), 19));
  }
  for (const std::string& p : extra_white) white.push_back(p);
  auto quoted = [](const std::vector<std::string>& v) {
    return absl::StrCat("[\"", absl::StrJoin(v, "\", \""), "\"]");
  };
  return absl::StrCat(R"("setup": {"black": )", quoted(black), R"(, "white": )", quoted(white),
                      "}");
}

const v1::Result& Count(Game& g, const std::string& ruleset, const std::string& extra,
                        const std::string& dead = "[]", bool double_move = false) {
  EXPECT_TRUE(g.Apply(0, Created(ruleset, "SAME_SITE", "", extra)).ok());
  EXPECT_TRUE(g.Apply(0, R"("gameStarted": {})").ok());
  int t = 10;
  EXPECT_TRUE(g.Apply(t++, Of("pass", "BLACK")).ok());
  if (double_move) {
    EXPECT_TRUE(g.Apply(t++, Of("pass", "BLACK")).ok());  // 17.2 in cn-2002
  }
  EXPECT_TRUE(g.Apply(t++, Of("pass", "WHITE")).ok());
  const absl::Status s = g.Apply(t++, absl::StrCat(R"("deadStones": {"points": )", dead, "}"));
  EXPECT_TRUE(s.ok()) << s;
  static const v1::Result kNone;
  return g.a().result() ? *g.a().result() : kNone;
}

TEST(CountTest, Article11Examples) {
  struct Example {
    int k;
    const char* ruleset;
    v1::Result::Outcome outcome;
    double margin;
    const char* sgf;
  };
  for (const Example& e :
       std::vector<Example>{{14, "cn-2002", v1::Result::BLACK_WINS, 0.75, "B+1.5"},  // 185
                            {13, "cn-2002", v1::Result::WHITE_WINS, 0.25, "W+0.5"},  // 184
                            {14, "cn-1988", v1::Result::BLACK_WINS, 1.75, "B+3.5"},  // 185 - 2¾
                            {13, "cn-1988", v1::Result::BLACK_WINS, 0.75, "B+1.5"}}) {
    SCOPED_TRACE(absl::StrCat(e.ruleset, " k=", e.k));
    Game g(e.ruleset);
    const v1::Result& r = Count(g, e.ruleset, WallSetup(e.k));
    EXPECT_EQ(r.reason(), v1::Result::COUNT);
    EXPECT_EQ(r.outcome(), e.outcome);
    EXPECT_DOUBLE_EQ(r.black_count(), 171 + e.k);
    EXPECT_DOUBLE_EQ(r.margin_stones(), e.margin);
    EXPECT_EQ(r.sgf(), e.sgf);
    EXPECT_TRUE(g.rulings().empty());
  }
}

TEST(CountTest, GameKomiOverridesTheRuleset) {
  Game g("cn-2002");
  const v1::Result& r = Count(g, "cn-2002", absl::StrCat(WallSetup(14), R"(, "komiStones": 0)"));
  EXPECT_EQ(r.outcome(), v1::Result::BLACK_WINS);
  EXPECT_DOUBLE_EQ(r.margin_stones(), 4.5);  // 185 - 180.5
  EXPECT_EQ(r.sgf(), "B+9");
}

TEST(CountTest, PenaltyStoneMovesTheMarginAgainstTheWarnedSide) {
  Game g("cn-2002");
  const v1::Result& r = Count(g, "cn-2002", WallSetup(14), "[]", /*double_move=*/true);
  ASSERT_EQ(g.rulings().size(), 1u);
  EXPECT_EQ(r.penalty_stones().black(), 1);
  EXPECT_EQ(r.outcome(), v1::Result::WHITE_WINS);  // ¾ - 1 = -¼
  EXPECT_DOUBLE_EQ(r.margin_stones(), 0.25);
}

TEST(CountTest, DeadStonesAreRemovedBeforeCounting) {
  // A white stone inside Black's area: alive, it makes the whole left region
  // neutral; agreed dead, Black's area is whole again.
  Game alive("cn-2002");
  const v1::Result& a = Count(alive, "cn-2002", WallSetup(14, {"B2"}));
  EXPECT_EQ(a.outcome(), v1::Result::WHITE_WINS);
  Game dead("cn-2002");
  const v1::Result& d = Count(dead, "cn-2002", WallSetup(14, {"B2"}), R"(["B2"])");
  EXPECT_EQ(d.outcome(), v1::Result::BLACK_WINS);
  EXPECT_DOUBLE_EQ(d.black_count(), 185);
  // The state says which stones the count took off; the board still shows
  // them as played. None before the count, none when none were agreed.
  const v1::GameState state = dead.a().State();
  EXPECT_EQ(std::vector<std::string>(state.dead_stones().begin(), state.dead_stones().end()),
            std::vector<std::string>{"B2"});
  EXPECT_EQ(state.board(17)[1], 'O');  // row 2, column B
  EXPECT_EQ(alive.a().State().dead_stones_size(), 0);
}

// DOMAIN.md §5: every result cites its clause. The count cites art. 9 with the
// komi article; the published first versions cited none, and still do not.
TEST(CountTest, TheResultCitesTheCountAndKomiArticles) {
  struct Case {
    const char* ruleset;
    const char* version;
    const char* clause;
    std::vector<std::string> also;
  };
  for (const Case& c : {Case{"cn-2002", "2002.2", "cn-2002/9", {"cn-2002/11"}},
                        Case{"cn-1988", "1988.2", "cn-1988/9", {"cn-1988/11"}},
                        Case{"cn-2002", "2002.1", "", {}}, Case{"cn-1988", "1988.1", "", {}}}) {
    SCOPED_TRACE(c.version);
    Game g(*LoadRulesVersion(c.ruleset, c.version));
    const v1::Result& r = Count(g, c.ruleset, WallSetup(14));
    EXPECT_EQ(r.clause(), c.clause);
    EXPECT_EQ(std::vector<std::string>(r.also_cites().begin(), r.also_cites().end()), c.also);
  }
}

}  // namespace
}  // namespace arbiter::testing
