// Every row of DOMAIN.md §4, under cn-2002 and under cn-1988, through the
// real rules data: the events of one incident, and the rulings and result
// each ruleset must give. The latest versions rule as the rows say; the
// published first versions (2002.1, 1988.1) still rule as they did when
// games were pinned to them, where a row says otherwise for them.
#include <algorithm>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gtest/gtest.h"
#include "tests/engine/engine_test_util.h"

namespace arbiter::testing {
namespace {

struct Expected {
  std::string clause;
  std::string against;
  std::set<std::string> sanctions;
  bool pending = false;
  std::set<std::string> options = {};  // checked when pending
};

struct Verdict {
  std::vector<Expected> rulings;
  std::string outcome;  // empty: the game goes on
  std::string reason = "";
  std::optional<std::string> clause = std::nullopt;  // the result's clause, when given
};

struct Row {
  std::string name;
  std::vector<std::pair<int, std::string>> events;
  Verdict cn2002;
  Verdict cn1988;
  std::string venue = "SAME_SITE";
  std::string time_control =
      R"({"mainTime": "3600s", "byoYomi": {"periods": 5, "periodTime": "60s"}})";
  std::string started = "{}";
  // How the published first versions rule, where they differ from the
  // latest: games pinned to them keep these rulings.
  std::optional<Verdict> cn2002_1 = std::nullopt;
  std::optional<Verdict> cn1988_1 = std::nullopt;
};

const std::string kB = "BLACK";
const std::string kW = "WHITE";
const std::string kByoYomi =
    R"({"mainTime": "3600s", "byoYomi": {"periods": 5, "periodTime": "60s"}})";
const std::string kAbsolute = R"({"mainTime": "3600s"})";

// Black and White build a single ko at D4/E4; White has just been captured
// at D4 by Black's E4 (the ko-retake scenario, up to the retake).
std::vector<std::pair<int, std::string>> KoSetup() {
  return {{10, Move(kB, "D5")},  {20, Move(kW, "E5")}, {30, Move(kB, "C4")},
          {40, Move(kW, "F4")},  {50, Move(kB, "D3")}, {60, Move(kW, "E3")},
          {70, Move(kB, "Q16")}, {80, Move(kW, "D4")}, {90, Move(kB, "E4")}};
}

std::vector<std::pair<int, std::string>> Plus(std::vector<std::pair<int, std::string>> a,
                                              const std::vector<std::pair<int, std::string>>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

std::string Name(const Expected& e) {
  std::vector<std::string> s(e.sanctions.begin(), e.sanctions.end());
  return absl::StrCat(e.clause, " ", e.against, " {", absl::StrJoin(s, ","), "}",
                      e.pending ? " pending" : "");
}

void Check(const Row& row, const Rules& rules, const Verdict& want) {
  SCOPED_TRACE(absl::StrCat(row.name, " under ", rules.id(), " ", rules.version()));
  Game g(rules);
  ASSERT_TRUE(g.Apply(0, Created(rules.id(), row.venue, row.time_control)).ok());
  ASSERT_TRUE(g.Apply(0, absl::StrCat(R"("gameStarted": )", row.started)).ok());
  for (const auto& [t, kind] : row.events) {
    const absl::Status s = g.Apply(t, kind);
    ASSERT_TRUE(s.ok()) << kind << ": " << s;
  }
  const std::vector<v1::Ruling>& got = g.rulings();
  std::string got_text;
  for (const v1::Ruling& r : got) absl::StrAppend(&got_text, r.ShortDebugString(), "\n");
  ASSERT_EQ(got.size(), want.rulings.size()) << got_text;
  for (size_t i = 0; i < got.size(); ++i) {
    const v1::Ruling& r = got[i];
    const Expected& e = want.rulings[i];
    std::set<std::string> sanctions;
    for (const int s : r.sanctions()) sanctions.insert(v1::Sanction_Name(s));
    EXPECT_EQ(r.clause(), e.clause) << Name(e);
    EXPECT_EQ(v1::Ruling::Party_Name(r.against()), e.against) << Name(e);
    EXPECT_EQ(sanctions, e.sanctions) << Name(e);
    EXPECT_EQ(r.pending(), e.pending) << Name(e);
    EXPECT_EQ(r.number(), i + 1);
    if (e.pending) {
      std::set<std::string> options;
      for (const v1::RulingOption& o : r.options()) options.insert(o.id());
      if (!e.options.empty()) {
        EXPECT_EQ(options, e.options) << Name(e);
      }
      EXPECT_FALSE(options.empty()) << Name(e);
    }
  }
  const v1::Result* result = g.a().result();
  if (want.outcome.empty()) {
    EXPECT_EQ(result, nullptr) << result->ShortDebugString();
  } else {
    ASSERT_NE(result, nullptr);
    EXPECT_EQ(v1::Result::Outcome_Name(result->outcome()), want.outcome);
    EXPECT_EQ(v1::Result::Reason_Name(result->reason()), want.reason);
    if (!got.empty() && result->reason() != v1::Result::COUNT &&
        result->reason() != v1::Result::RESIGNATION) {
      EXPECT_EQ(result->clause(), got.back().clause());
    }
    if (want.clause.has_value()) {
      EXPECT_EQ(result->clause(), *want.clause);
    }
  }
}

const std::set<std::string> kReferred1988 = {"ADVICE",    "WARNING",        "STONE_RESTORED",
                                             "MOVE_VOID", "COUNTS_AS_PASS", "LOSS",
                                             "BOTH_LOSE", "DRAW",           "REPLAY"};

std::vector<Row> Rows() {
  const Expected referred_b{"cn-1988/25.1", kB, {"REFERRED"}, true, kReferred1988};
  const Expected referred_w{"cn-1988/25.1", kW, {"REFERRED"}, true, kReferred1988};
  return {
      {"second move in a row",
       {{10, Move(kB, "Q16")}, {20, Move(kW, "D4")}, {30, Move(kB, "Q4")}, {40, Move(kB, "D16")}},
       {{{"cn-2002/17.2", kB, {"MOVE_VOID", "WARNING", "PENALTY_STONE"}}}},
       {{{"cn-1988/17.1", kB, {"LOSS"}}}, "WHITE_WINS", "VIOLATION"}},
      {"takeback",
       {{10, Move(kB, "Q16")}, {20, Move(kW, "D4")}, {25, Of("takeback", kW)}},
       {{{"cn-2002/17.3", kW, {"STONE_RESTORED", "WARNING", "PENALTY_STONE"}}}},
       {{{"cn-1988/17.2", kW, {"STONE_RESTORED", "WARNING"}}}}},
      {"press with no stone placed",
       {{10, Move(kB, "Q16")}, {11, Of("clockPress", kB)}, {15, Of("clockPress", kW)}},
       {{{"cn-2002/17.4", kW, {"CLOCK_UNCHANGED", "WARNING", "PENALTY_STONE"}}}},
       {{referred_w}}},
      {"press by the opponent before placing a stone (mover did not press)",
       {{10, Move(kB, "Q16")}, {15, Of("clockPress", kW)}},
       {{{"cn-2002/17.4", kW, {"CLOCK_UNCHANGED", "WARNING", "PENALTY_STONE"}}}},
       {{referred_w}}},
      {"press before the first move",
       {{5, Of("clockPress", kB)}},
       {{{"cn-2002/17.4", kB, {"CLOCK_UNCHANGED", "WARNING", "PENALTY_STONE"}}}},
       {{referred_b}}},
      // 22.6 is about a move that captured (DOMAIN.md §3.6): Black's A2 takes A1.
      {"press with captures not cleared",
       {{10, Move(kB, "B1")},
        {12, Move(kW, "A1")},
        {14, Move(kB, "A2")},
        {16, R"("clockPress": {"color": "BLACK", "capturesNotCleared": true})"}},
       {{{"cn-2002/22.6", kB, {"CLOCK_UNCHANGED", "WARNING", "PENALTY_STONE"}}}},
       {{{"cn-1988/23.4", kB, {}, true, {"ADVICE", "WARNING"}}}}},
      {"capture error: live stones removed",
       {{10, Move(kB, "Q16")},
        {20, Move(kW, "D4")},
        {25, R"("captureError": {"color": "WHITE", "kind": "REMOVED_LIVE", "points": ["Q16"]})"}},
       {{{"cn-2002/18.1", kW, {"STONE_RESTORED", "WARNING", "PENALTY_STONE"}}}},
       {{{"cn-1988/18", kW, {"STONE_RESTORED", "WARNING"}}}}},
      {"capture error: dead stones not removed",
       {{10, Move(kB, "B1")},
        {12, Move(kW, "A1")},
        {14, Move(kB, "A2")},  // takes A1
        {15, R"("captureError": {"color": "BLACK", "kind": "NOT_REMOVED", "points": ["A1"]})"}},
       {{{"cn-2002/18.2", kB, {"STONES_REMOVED", "WARNING", "PENALTY_STONE"}}}},
       {{referred_b}}},
      {"immediate recapture of a single ko",
       Plus(KoSetup(), {{100, Move(kW, "D4")}}),
       {{{"cn-2002/18.3", kW, {"MOVE_VOID", "COUNTS_AS_PASS", "WARNING", "PENALTY_STONE"}}}},
       {{{"cn-1988/20.1", kW, {"MOVE_VOID", "COUNTS_AS_PASS"}}}}},
      {"other whole-board repetition",
       Plus(KoSetup(), {{100, Of("pass", kW)}, {110, Of("pass", kB)}, {120, Move(kW, "D4")}}),
       {{{"cn-2002/20.3",
          kW,
          {},
          true,
          {"MOVE_VOID+COUNTS_AS_PASS", "NO_RESULT", "DRAW", "REPLAY"}}}},
       {{{"cn-1988/20.3", kW, {}, true, {"DRAW", "REPLAY"}}}}},
      {"suicide",
       {{10, Move(kB, "Q16")},
        {20, Move(kW, "A2")},
        {30, Move(kB, "Q4")},
        {40, Move(kW, "B1")},
        {50, Move(kB, "A1")}},
       {{{"cn-2002/19", kB, {"MOVE_VOID", "COUNTS_AS_PASS"}}}},
       {{{"cn-1988/19", kB, {"MOVE_VOID", "COUNTS_AS_PASS"}}}}},
      {"phone rings once",
       {{10, Move(kB, "Q16")}, {15, Of("phoneRang", kB)}},
       {{{"cn-2002/23.7", kB, {"WARNING", "PENALTY_STONE"}}}},
       {{referred_b}}},
      {"phone rings twice",
       {{10, Move(kB, "Q16")},
        {15, Of("phoneRang", kB)},
        {20, Move(kW, "D4")},
        {25, Of("phoneRang", kB)}},
       {{{"cn-2002/23.7", kB, {"WARNING", "PENALTY_STONE"}}, {"cn-2002/23.7", kB, {"LOSS"}}},
        "WHITE_WINS",
        "DISCIPLINE"},
       {{referred_b, referred_b}}},
      {"phone screen viewed",
       {{10, Move(kB, "Q16")}, {15, Of("phoneViewed", kW)}},
       {{{"cn-2002/23.7", kW, {"LOSS"}}}, "BLACK_WINS", "DISCIPLINE"},
       {{referred_w}}},
      {"smoking once",
       {{10, Move(kB, "Q16")}, {15, Of("smoking", kW)}},
       {{{"cn-2002/23.8", kW, {"WARNING", "PENALTY_STONE"}}}},
       {{referred_w}}},
      {"smoking twice",
       {{10, Move(kB, "Q16")},
        {15, Of("smoking", kW)},
        {20, Move(kW, "D4")},
        {25, Of("smoking", kW)}},
       {{{"cn-2002/23.8", kW, {"WARNING", "PENALTY_STONE"}}, {"cn-2002/23.8", kW, {"LOSS"}}},
        "BLACK_WINS",
        "DISCIPLINE"},
       {{referred_w, referred_w}}},
      {"misconduct: disturbance, pending",
       {{10, R"("misconduct": {"color": "BLACK", "kind": "DISTURBANCE"})"}},
       {{{"cn-2002/23.3", kB, {}, true, {"WARNING", "LOSS"}}}},
       {{{"cn-1988/24.2", kB, {}, true, {"ADVICE", "WARNING"}}}}},
      {"misconduct: discussion, decided LOSS",
       {{10, R"("misconduct": {"color": "WHITE", "kind": "DISCUSSION", "decision": "LOSS"})"}},
       {{{"cn-2002/23.4", kW, {"LOSS"}}}, "BLACK_WINS", "DISCIPLINE"},
       {{{"cn-1988/24.3", kW, {"LOSS"}}}, "BLACK_WINS", "DISCIPLINE"}},
      {"misconduct: talk, decided WARNING",
       {{10, R"("misconduct": {"color": "WHITE", "kind": "TALK", "decision": "WARNING"})"}},
       {{{"cn-2002/23.5", kW, {"WARNING", "PENALTY_STONE"}}}},
       {{{"cn-1988/24.3", kW, {"WARNING"}}}}},
      {"misconduct: cheating, pending",
       {{10, R"("misconduct": {"color": "WHITE", "kind": "CHEATING"})"}},
       {{{"cn-2002/23.1", kW, {}, true, {"LOSS", "BOTH_LOSE"}}}},
       {{referred_w}}},
      {"warnings across kinds: takeback then phone",
       {{10, Move(kB, "Q16")},
        {20, Move(kW, "D4")},
        {25, Of("takeback", kW)},
        {30, Of("phoneRang", kW)}},
       {{{"cn-2002/17.3", kW, {"STONE_RESTORED", "WARNING", "PENALTY_STONE"}},
         {"cn-2002/23.7", kW, {"WARNING", "PENALTY_STONE"}},
         {"cn-2002/24.2", kW, {"LOSS"}}},
        "BLACK_WINS",
        "WARNINGS"},
       {{{"cn-1988/17.2", kW, {"STONE_RESTORED", "WARNING"}}, referred_w}}},
      {"warnings across kinds: takeback then a decided warning",
       {{10, Move(kB, "Q16")},
        {20, Move(kW, "D4")},
        {25, Of("takeback", kW)},
        {30, R"("misconduct": {"color": "WHITE", "kind": "TALK", "decision": "WARNING"})"}},
       {{{"cn-2002/17.3", kW, {"STONE_RESTORED", "WARNING", "PENALTY_STONE"}},
         {"cn-2002/23.5", kW, {"WARNING", "PENALTY_STONE"}},
         {"cn-2002/24.2", kW, {"LOSS"}}},
        "BLACK_WINS",
        "WARNINGS"},
       {{{"cn-1988/17.2", kW, {"STONE_RESTORED", "WARNING"}},
         {"cn-1988/24.3", kW, {"WARNING"}},
         {"cn-1988/25.2", kW, {"LOSS"}}},
        "BLACK_WINS",
        "WARNINGS"}},
      {"late within the limit, same site",
       {{10, Move(kB, "Q16")}, {600, Of("playerArrived", kW)}},
       {{{"cn-2002/22.2", kW, {"TIME_DEDUCTED"}}}},
       {{{"cn-1988/23.3", kW, {"TIME_DEDUCTED"}}}},
       "SAME_SITE",
       R"({"mainTime": "3600s", "byoYomi": {"periods": 5, "periodTime": "60s"}})",
       R"({"absent": ["WHITE"]})"},
      {"late exactly at the limit, same site (inclusive)",
       {{10, Move(kB, "Q16")}, {900, Of("playerArrived", kW)}},
       {{{"cn-2002/22.2", kW, {"TIME_DEDUCTED"}}}},
       {{{"cn-1988/23.3", kW, {"TIME_DEDUCTED"}}}},
       "SAME_SITE",
       R"({"mainTime": "3600s", "byoYomi": {"periods": 5, "periodTime": "60s"}})",
       R"({"absent": ["WHITE"]})"},
      {"late within the limit, separate site",
       {{1200, Of("playerArrived", kB)}},
       {{{"cn-2002/22.1", kB, {"TIME_DEDUCTED"}}}},
       {{{"cn-1988/23.3", kB, {"TIME_DEDUCTED"}}}},
       "SEPARATE_SITE",
       R"({"mainTime": "3600s", "byoYomi": {"periods": 5, "periodTime": "60s"}})",
       R"({"absent": ["BLACK"]})"},
      // Without a clock the lateness is ruled all the same (DOMAIN.md,
      // "Deduction"): 22.4's absent byo-yomi is for RAPID games.
      {"untimed: late within the limit",
       {{10, Move(kB, "Q16")}, {600, Of("playerArrived", kW)}},
       {{{"cn-2002/22.2", kW, {"TIME_DEDUCTED"}}}},
       {{{"cn-1988/23.3", kW, {"TIME_DEDUCTED"}}}},
       "SAME_SITE",
       "",
       R"({"absent": ["WHITE"]})"},
      {"untimed: late beyond the limit",
       {{10, Move(kB, "Q16")}, {901, Of("playerArrived", kW)}},
       {{{"cn-2002/22.2", kW, {"LOSS"}}}, "BLACK_WINS", "LATENESS"},
       {{{"cn-1988/23.1", kW, {"LOSS"}}}, "BLACK_WINS", "LATENESS"},
       "SAME_SITE",
       "",
       R"({"absent": ["WHITE"]})"},
      {"late one second beyond the limit",
       {{10, Move(kB, "Q16")}, {901, Of("playerArrived", kW)}},
       {{{"cn-2002/22.2", kW, {"LOSS"}}}, "BLACK_WINS", "LATENESS"},
       {{{"cn-1988/23.1", kW, {"LOSS"}}}, "BLACK_WINS", "LATENESS"},
       "SAME_SITE",
       R"({"mainTime": "3600s"})",
       R"({"absent": ["WHITE"]})"},
      {"still absent at the limit",
       {{10, Move(kB, "Q16")}, {1000, Of("phoneRang", kB)}},
       {{{"cn-2002/22.2", kW, {"LOSS"}}}, "BLACK_WINS", "LATENESS"},
       {{{"cn-1988/23.1", kW, {"LOSS"}}}, "BLACK_WINS", "LATENESS"},
       "SAME_SITE",
       R"({"mainTime": "3600s"})",
       R"({"absent": ["WHITE"]})"},
      {"both late beyond the limit",
       {{1000, Of("playerArrived", kB)}},
       {{{"cn-2002/22.3", "BOTH", {"BOTH_LOSE"}}}, "BOTH_LOSE", "LATENESS"},
       {{{"cn-1988/23.2", "BOTH", {"BOTH_LOSE"}}}, "BOTH_LOSE", "LATENESS"},
       "SAME_SITE",
       R"({"mainTime": "3600s"})",
       R"({"absent": ["BLACK", "WHITE"]})"},
      {"RAPID: no forfeit, the clock runs",
       {{10, Move(kB, "Q16")}, {2000, Of("playerArrived", kW)}, {2010, Move(kW, "D4")}},
       {{}},
       {{}},
       "RAPID",
       R"({"mainTime": "3600s"})",
       R"({"absent": ["WHITE"]})"},
      {"late after resumption: the clock simply runs (22.1, third sentence)",
       {{10, Move(kB, "Q16")},
        {20, Move(kW, "D4")},
        {30, R"("adjourned": {})"},
        {1000, R"("resumed": {})"},
        {2000, Of("playerArrived", kB)}},
       {{}},
       {{}},
       "SAME_SITE",
       kByoYomi,
       "{}",
       Verdict{{{"cn-2002/22.2", kB, {"TIME_DEDUCTED"}}}},
       Verdict{{{"cn-1988/23.3", kB, {"TIME_DEDUCTED"}}}}},
      {"flag falls in byo-yomi",
       {{570, Move(kB, "Q16")},
        {580, Move(kW, "D4")},
        {660, Move(kB, "Q4")},
        {665, Move(kW, "D16")},
        {790, Move(kB, "R10")},
        {795, Move(kW, "C10")},
        {860, Move(kB, "K10")}},
       {{{"cn-2002/22.5", kB, {"LOSS"}}}, "WHITE_WINS", "TIME"},
       {{{"cn-1988/23.5", kB, {"LOSS"}}}, "WHITE_WINS", "TIME"},
       "SAME_SITE",
       R"({"mainTime": "600s", "byoYomi": {"periods": 3, "periodTime": "60s"}})"},
      {"flag falls with no byo-yomi",
       {{10, Move(kB, "Q16")}, {80, Move(kW, "D4")}},
       {{{"cn-2002/12.4", kW, {"LOSS"}}}, "BLACK_WINS", "TIME"},
       {{{"cn-1988/23.5", kW, {"LOSS"}}}, "BLACK_WINS", "TIME"},
       "SAME_SITE",
       R"({"mainTime": "60s"})"},
      {"flag falls in moves-in-time (12.5, the loss as in 12.4)",
       {{50, Move(kB, "Q16")}, {55, Move(kW, "D4")}, {100, Move(kB, "Q4")}},
       {{{"cn-2002/12.5", kB, {"LOSS"}}}, "WHITE_WINS", "TIME"},
       {{{"cn-1988/23.5", kB, {"LOSS"}}}, "WHITE_WINS", "TIME"},
       "SAME_SITE",
       R"({"mainTime": "60s", "movesInTime": {"moves": 2, "period": "30s"}})",
       "{}",
       Verdict{{{"cn-2002/22.5", kB, {"LOSS"}}}, "WHITE_WINS", "TIME"}},
      {"flag reported while the record shows more than 10 s left (12.4(6))",
       {{10, Move(kB, "Q16")}, {20, Move(kW, "D4")}, {60, Of("timeExpired", kB)}},
       {{{"cn-2002/12.4.6", kB, {}, true, {"LOSS", "NONE"}}}},
       {{{"cn-1988/23.5", kB, {"LOSS"}}}, "WHITE_WINS", "TIME"},
       "SAME_SITE",
       kByoYomi,
       "{}",
       Verdict{{{"cn-2002/22.5", kB, {"LOSS"}}}, "WHITE_WINS", "TIME"}},
      {"absolute time: a move with exactly 0 s left is in time (12.4(5))",
       {{60, Move(kB, "Q16")}},
       {{}},
       {{{"cn-1988/23.5", kB, {"LOSS"}}}, "WHITE_WINS", "TIME"},
       "SAME_SITE",
       R"({"mainTime": "60s"})",
       "{}",
       Verdict{{{"cn-2002/12.4", kB, {"LOSS"}}}, "WHITE_WINS", "TIME"}},
      {"timeExpired with passRequested in the last period",
       {{10, Move(kB, "Q16")},
        {20, Move(kW, "D4")},
        {100, R"("timeExpired": {"color": "BLACK", "passRequested": true})"}},
       {{{"cn-2002/22.5", kB, {"COUNTS_AS_PASS"}}}},
       {{{"cn-1988/23.5", kB, {"LOSS"}}}, "WHITE_WINS", "TIME"},
       "SAME_SITE",
       R"({"mainTime": "60s", "byoYomi": {"periods": 1, "periodTime": "30s"}})"},
      {"stones displaced without agreement",
       {{10, Move(kB, "Q16")},
        {15,
         R"("stonesDisplaced": {"points": [{"from": "Q16", "to": "Q17"}], "agreement": "NONE"})"}},
       {{{"cn-2002/17.5",
          "BOTH",
          {},
          true,
          {"STONE_RESTORED", "STANDS", "DRAW", "REPLAY", "BOTH_LOSE"}}}},
       {{{"cn-1988/17.3", "BOTH", {}, true, {"STONE_RESTORED", "STANDS", "DRAW", "REPLAY"}}}}},
      {"stones displaced deliberately",
       {{10, Move(kB, "Q16")},
        {15,
         R"("stonesDisplaced": {"points": [{"from": "Q16", "to": "Q17"}], "agreement": "NONE", "byColor": "WHITE", "deliberate": true})"}},
       {{{"cn-2002/17.5", kW, {"LOSS"}}}, "BLACK_WINS", "VIOLATION"},
       {{{"cn-1988/17.3", kW, {"LOSS"}}}, "BLACK_WINS", "VIOLATION"}},
      {"stones displaced, both agree they stand: no ruling",
       {{10, Move(kB, "Q16")},
        {15,
         R"("stonesDisplaced": {"points": [{"from": "Q16", "to": "Q17"}], "agreement": "STANDS"})"}},
       {{}},
       {{}}},
      {"board scattered from outside, not reconstructed",
       {{10, Move(kB, "Q16")}, {15, R"("boardScattered": {"cause": "EXTERNAL"})"}},
       {{{"cn-2002/17.6", "BOTH", {}, true, {"DRAW", "REPLAY", "BOTH_LOSE"}}}},
       {{{"cn-1988/17.4", "BOTH", {}, true, {"DRAW", "REPLAY"}}}}},
      {"board scattered by a player's accident, not reconstructed",
       {{10, Move(kB, "Q16")},
        {15, R"("boardScattered": {"cause": "PLAYER_ACCIDENT", "byColor": "BLACK"})"}},
       {{{"cn-2002/17.6", kB, {"LOSS"}}}, "WHITE_WINS", "VIOLATION"},
       {{{"cn-1988/17.4", kB, {"LOSS"}}}, "WHITE_WINS", "VIOLATION"}},
      {"board scattered, reconstructed: no ruling",
       {{10, Move(kB, "Q16")},
        {15,
         R"("boardScattered": {"cause": "PLAYER_ACCIDENT", "byColor": "BLACK", "reconstructed": true})"}},
       {{}},
       {{}}},
      {"misconduct: cheating, decided BOTH_LOSE: against both",
       {{10, R"("misconduct": {"color": "WHITE", "kind": "CHEATING", "decision": "BOTH_LOSE"})"}},
       {{{"cn-2002/23.1", "BOTH", {"BOTH_LOSE"}}}, "BOTH_LOSE", "DISCIPLINE"},
       {{{"cn-1988/25.1", "BOTH", {"BOTH_LOSE"}}}, "BOTH_LOSE", "DISCIPLINE"},
       "SAME_SITE",
       kByoYomi,
       "{}",
       Verdict{{{"cn-2002/23.1", kW, {"BOTH_LOSE"}}}, "BOTH_LOSE", "DISCIPLINE"},
       Verdict{{{"cn-1988/25.1", kW, {"BOTH_LOSE"}}}, "BOTH_LOSE", "DISCIPLINE"}},
      {"late beyond the limit, separate site",
       {{3601, Of("playerArrived", kB)}},
       {{{"cn-2002/22.1", kB, {"LOSS"}}}, "WHITE_WINS", "LATENESS"},
       {{{"cn-1988/23.1", kB, {"LOSS"}}}, "WHITE_WINS", "LATENESS"},
       "SEPARATE_SITE",
       R"({"mainTime": "7200s"})",
       R"({"absent": ["BLACK"]})"},
      {"wrong colours found within the correctable moves: no ruling",
       {{10, Move(kB, "Q16")}, {20, Move(kW, "D4")}, {30, R"("wrongColors": {})"}},
       {{}},
       {{}},
       "SAME_SITE",
       kByoYomi,
       "{}",
       Verdict{{{"cn-2002/17.1", "BOTH", {}}}}},
      {"seat left without permission: no ruling",
       {{10, Move(kB, "Q16")},
        {20, R"("leftSeat": {"color": "WHITE"})"},
        {80, R"("returnedSeat": {"color": "WHITE"})"}},
       {{}},
       {{}},
       "SAME_SITE",
       kByoYomi,
       "{}",
       Verdict{{{"cn-2002/22.7", kW, {}}}},
       Verdict{{{"cn-1988/23.6", kW, {}}}}},
      {"seat left in byo-yomi with permission, once: no ruling",
       {{70, Move(kB, "Q16")},
        {80, Move(kW, "D4")},
        {90, Move(kB, "Q4")},
        {95, R"("leftSeat": {"color": "BLACK", "permitted": true})"},
        {100, R"("returnedSeat": {"color": "BLACK", "permitted": true})"}},
       {{}},
       {{}},
       "SAME_SITE",
       R"({"mainTime": "60s", "byoYomi": {"periods": 5, "periodTime": "60s"}})"},
      {"clock malfunction at the tolerance: prorated, no ruling",
       {{10, Move(kB, "Q16")},
        {20,
         R"("clockMalfunction": {"errorPerHour": "120s", "blackUsed": "12s", "whiteUsed": "8s"})"}},
       {{}},
       {{}},
       "SAME_SITE",
       kByoYomi,
       "{}",
       Verdict{{{"cn-2002/22.8", "BOTH", {}}}}},
      {"clock failure in absolute time: the chief arbiter decides (12.4(6))",
       {{10, Move(kB, "Q16")},
        {20,
         R"("clockMalfunction": {"errorPerHour": "180s", "blackUsed": "12s", "whiteUsed": "8s"})"}},
       {{{"cn-2002/12.4.6",
          "BOTH",
          {},
          true,
          {"REPLACE_CLOCK", "READINGS_INTERPRETED", "BLACK_LOSES", "WHITE_LOSES"}}}},
       {{}},
       "SAME_SITE",
       kAbsolute,
       "{}",
       Verdict{{{"cn-2002/22.8", "BOTH", {}}}}},
      {"resignation: a result citing 7.2, no ruling",
       {{10, Move(kB, "Q16")}, {20, Of("resign", kW)}},
       {{}, "BLACK_WINS", "RESIGNATION", "cn-2002/7.2"},
       {{}, "BLACK_WINS", "RESIGNATION", "cn-1988/7.2"},
       "SAME_SITE",
       kByoYomi,
       "{}",
       Verdict{{}, "BLACK_WINS", "RESIGNATION", ""},
       Verdict{{}, "BLACK_WINS", "RESIGNATION", ""}},
      {"RAPID: an absent player whose time runs out loses under 22.4",
       {{80, Of("playerArrived", kB)}},
       {{{"cn-2002/22.4", kB, {"LOSS"}}}, "WHITE_WINS", "TIME"},
       {{{"cn-1988/23.5", kB, {"LOSS"}}}, "WHITE_WINS", "TIME"},
       "RAPID",
       R"({"mainTime": "30s", "byoYomi": {"periods": 2, "periodTime": "20s"}})",
       R"({"absent": ["BLACK"]})",
       Verdict{{{"cn-2002/22.5", kB, {"LOSS"}}}, "WHITE_WINS", "TIME"}},
      {"not RAPID: an absent player's flag before the lateness limit is a flag fall",
       {{10, Move(kB, "Q16")}, {700, Of("phoneRang", kB)}},
       {{{"cn-2002/12.4", kW, {"LOSS"}}}, "BLACK_WINS", "TIME"},
       {{{"cn-1988/23.5", kW, {"LOSS"}}}, "BLACK_WINS", "TIME"},
       "SAME_SITE",
       R"({"mainTime": "600s"})",
       R"({"absent": ["WHITE"]})"},
      {"misconduct: leaving the game midway without reason",
       {{10, R"("misconduct": {"color": "WHITE", "kind": "WALKOUT"})"}},
       {{{"cn-2002/30.6",
          kW,
          {"REFERRED"},
          true,
          {"WARNING", "LOSS", "DRAW", "REPLAY", "BOTH_LOSE"}}}},
       {{{"cn-1988/24.1", kW, {"WARNING"}}}},
       "SAME_SITE",
       kByoYomi,
       "{}",
       Verdict{{}},
       Verdict{{}}},
      {"leaving midway then a takeback: two warnings under cn-1988 (25.2)",
       {{10, Move(kB, "Q16")},
        {20, Move(kW, "D4")},
        {25, Of("takeback", kW)},
        {30, R"("misconduct": {"color": "WHITE", "kind": "WALKOUT"})"}},
       {{{"cn-2002/17.3", kW, {"STONE_RESTORED", "WARNING", "PENALTY_STONE"}},
         {"cn-2002/30.6", kW, {"REFERRED"}, true}}},
       {{{"cn-1988/17.2", kW, {"STONE_RESTORED", "WARNING"}},
         {"cn-1988/24.1", kW, {"WARNING"}},
         {"cn-1988/25.2", kW, {"LOSS"}}},
        "BLACK_WINS",
        "WARNINGS"},
       "SAME_SITE",
       kByoYomi,
       "{}",
       Verdict{{{"cn-2002/17.3", kW, {"STONE_RESTORED", "WARNING", "PENALTY_STONE"}}}},
       Verdict{{{"cn-1988/17.2", kW, {"STONE_RESTORED", "WARNING"}}}}},
      {"sealed move on an occupied point",
       {{10, Move(kB, "Q16")},
        {20, Of("moveSealed", kW)},
        {1000, R"("resumed": {})"},
        {1010, R"("sealedMoveOpened": {"color": "WHITE", "point": "Q16"})"}},
       {{{"cn-2002/14", kW, {}, true, {"MOVE_VOID+COUNTS_AS_PASS", "MOVE_VOID"}}}},
       {{{"cn-1988/22", kW, {"MOVE_VOID", "COUNTS_AS_PASS"}}}},
       "SAME_SITE",
       kByoYomi,
       "{}",
       Verdict{{}},
       Verdict{{}}},
      {"a dropped stone, no consent: the chief arbiter decides (17.3)",
       {{10, Move(kB, "Q16")}, {15, R"("stoneDropped": {"color": "WHITE", "point": "D4"})"}},
       {{{"cn-2002/17.3", "BOTH", {}, true, {"PICKED_UP", "STANDS"}}}},
       {{}},
       "SAME_SITE",
       kByoYomi,
       "{}",
       Verdict{{}}},
      {"a dropped stone picked up with consent: no ruling",
       {{10, Move(kB, "Q16")},
        {15, R"("stoneDropped": {"color": "WHITE", "point": "D4", "consented": true})"}},
       {{}},
       {{}}},
      {"time-wasting in absolute time (12.4(7))",
       {{10, Move(kB, "Q16")}, {15, Of("timeWasting", kW)}},
       {{{"cn-2002/12.4.7", kW, {}, true, {"STOPPED", "DISMISSED"}}}},
       {{referred_w}},
       "SAME_SITE",
       kAbsolute,
       "{}",
       Verdict{{}},
       Verdict{{}}},
      {"time-wasting with byo-yomi: no clause names it, referred",
       {{10, Move(kB, "Q16")}, {15, Of("timeWasting", kW)}},
       {{{"cn-2002/30.6",
          kW,
          {"REFERRED"},
          true,
          {"WARNING", "LOSS", "DRAW", "REPLAY", "BOTH_LOSE"}}}},
       {{referred_w}},
       "SAME_SITE",
       kByoYomi,
       "{}",
       Verdict{{}}},
      {"withdrawal from the competition (23.2)",
       {{10, Move(kB, "Q16")}, {15, Of("withdrew", kW)}},
       {{{"cn-2002/23.2", kW, {"LOSS"}}}, "BLACK_WINS", "DISCIPLINE"},
       {{referred_w}},
       "SAME_SITE",
       kByoYomi,
       "{}",
       Verdict{{}},
       Verdict{{}}},
      {"board scattered deliberately: only cn-1988 has a clause",
       {{10, Move(kB, "Q16")},
        {15, R"("boardScattered": {"cause": "PLAYER_DELIBERATE", "byColor": "WHITE"})"}},
       {{{"cn-2002/30.6",
          kW,
          {"REFERRED"},
          true,
          {"LOSS", "WARNING", "DRAW", "REPLAY", "BOTH_LOSE"}}}},
       {{{"cn-1988/17.4", kW, {"LOSS"}}}, "BLACK_WINS", "VIOLATION"},
       "SAME_SITE",
       kByoYomi,
       "{}",
       Verdict{{{"cn-2002/17.6", kW, {"LOSS"}}}, "BLACK_WINS", "VIOLATION"}},
  };
}

TEST(RulingsTableTest, EveryRowUnderBothRulesets) {
  const Rules cn2002 = *LoadRules("cn-2002");
  const Rules cn1988 = *LoadRules("cn-1988");
  for (const Row& row : Rows()) {
    Check(row, cn2002, row.cn2002);
    Check(row, cn1988, row.cn1988);
  }
}

// A game pinned to a published version is judged under it for ever: the
// first versions rule every row as they did before the second existed.
TEST(RulingsTableTest, ThePublishedFirstVersionsStillRuleAsTheyDid) {
  absl::StatusOr<Rules> cn2002 = LoadRulesVersion("cn-2002", "2002.1");
  absl::StatusOr<Rules> cn1988 = LoadRulesVersion("cn-1988", "1988.1");
  ASSERT_TRUE(cn2002.ok()) << cn2002.status();
  ASSERT_TRUE(cn1988.ok()) << cn1988.status();
  ASSERT_NE(cn2002->hash(), LoadRules("cn-2002")->hash()) << "2002.1 is not the latest";
  for (const Row& row : Rows()) {
    Check(row, *cn2002, row.cn2002_1.value_or(row.cn2002));
    Check(row, *cn1988, row.cn1988_1.value_or(row.cn1988));
  }
}

}  // namespace
}  // namespace arbiter::testing
