// The count without the moves (DOMAIN.md §3.3): `countRecorded {blackCount}`
// turned into the result by the margin of §2 under the game's ruleset, and a
// game recorded without its moves judged as a whole (time, warnings and the
// incidents that need a board). Figures hand-computed from arts. 9, 11, 24.1
// (1988 9, 11, 25.2): margin = blackCount - 180.5 - komi - pB + pW.
#include <string>

#include "absl/strings/str_cat.h"
#include "tests/engine/engine_test_util.h"

namespace arbiter::testing {
namespace {

std::string Count(double black) {
  return absl::StrCat(R"("countRecorded": {"blackCount": )", black, "}");
}

// A game with no move recorded: created, started, then `kinds` one a minute.
Game Moveless(const std::string& ruleset, const std::vector<std::string>& kinds,
              const std::string& extra = "") {
  Game g(ruleset);
  EXPECT_TRUE(g.Apply(0, Created(ruleset, "SAME_SITE", kHourAndByoYomi, extra)).ok());
  EXPECT_TRUE(g.Apply(0, R"("gameStarted": {})").ok());
  int t = 60;
  for (const std::string& k : kinds) {
    const absl::Status s = g.Apply(t, k);
    EXPECT_TRUE(s.ok()) << k << ": " << s;
    t += 60;
  }
  return g;
}

void ExpectCount(const Adjudicator& a, v1::Result::Outcome outcome, double margin,
                 const std::string& sgf, int pb, int pw) {
  ASSERT_NE(a.result(), nullptr);
  EXPECT_EQ(a.result()->outcome(), outcome);
  EXPECT_EQ(a.result()->reason(), v1::Result::COUNT);
  EXPECT_DOUBLE_EQ(a.result()->margin_stones(), margin);
  EXPECT_EQ(a.result()->sgf(), sgf);
  EXPECT_EQ(a.result()->penalty_stones().black(), pb);
  EXPECT_EQ(a.result()->penalty_stones().white(), pw);
}

TEST(CountRecordedTest, Article11ExamplesWithoutMoves) {
  // 185 -> Black by 3/4, 184 -> White by 1/4, 184.5 -> Black by 1/4.
  ExpectCount(Moveless("cn-2002", {Count(185)}).a(), v1::Result::BLACK_WINS, 0.75, "B+1.5", 0, 0);
  ExpectCount(Moveless("cn-2002", {Count(184)}).a(), v1::Result::WHITE_WINS, 0.25, "W+0.5", 0, 0);
  ExpectCount(Moveless("cn-2002", {Count(184.5)}).a(), v1::Result::BLACK_WINS, 0.25, "B+0.5", 0, 0);
}

TEST(CountRecordedTest, ThePenaltyStonesAroundThe184AndAQuarterBoundary) {
  // 185 - 180.5 - 3.75 - 1 = -0.25: Black's ring (23.7) turns a win into a loss.
  Game black = Moveless("cn-2002", {Of("phoneRang", "BLACK"), Count(185)});
  ExpectCount(black.a(), v1::Result::WHITE_WINS, 0.25, "W+0.5", 1, 0);
  EXPECT_EQ(black.a().result()->clause(), "cn-2002/9");
  ASSERT_EQ(black.a().result()->also_cites_size(), 1);
  EXPECT_EQ(black.a().result()->also_cites(0), "cn-2002/11");
  // 184 - 180.5 - 3.75 + 1 = +0.75: White's takeback (17.3) the other way.
  ExpectCount(Moveless("cn-2002", {Of("takeback", "WHITE"), Count(184)}).a(),
              v1::Result::BLACK_WINS, 0.75, "B+1.5", 0, 1);
  // Both warned once: the stones cancel out, 184.5 - 184.25 = +0.25.
  ExpectCount(Moveless("cn-2002", {Of("smoking", "WHITE"),
                                   R"("captureError": {"color": "BLACK", "kind": "REMOVED_LIVE",)"
                                   R"( "points": ["D4"]})",
                                   Count(184.5)})
                  .a(),
              v1::Result::BLACK_WINS, 0.25, "B+0.5", 1, 1);
}

TEST(CountRecordedTest, TheGamesOwnKomiAndThe1988Figures) {
  // komiStones 3.5: 184 - 180.5 - 3.5 = 0, a draw.
  Game own = Moveless("cn-2002", {Count(184)}, R"("komiStones": 3.5)");
  ASSERT_NE(own.a().result(), nullptr);
  EXPECT_EQ(own.a().result()->outcome(), v1::Result::DRAW);
  EXPECT_EQ(own.a().result()->sgf(), "0");
  // 1988: komi 2 3/4 (art. 11) and no penalty stone for a warning (25.2
  // counts warnings toward a loss only): 183.5 - 180.5 - 2.75 = +0.25.
  Game old = Moveless("cn-1988", {Of("takeback", "WHITE"), Count(183.5)});
  ExpectCount(old.a(), v1::Result::BLACK_WINS, 0.25, "B+0.5", 0, 0);
  EXPECT_EQ(old.a().State().warnings().white(), 1);
  EXPECT_EQ(old.a().result()->clause(), "cn-1988/9");
}

TEST(CountRecordedTest, ABadCountIsRefusedAndChangesNothing) {
  for (const std::string& bad : {Count(184.25), Count(-0.5), Count(361.5),
                                 std::string(R"("countRecorded": {"blackCount": "NaN"})")}) {
    Game g = Moveless("cn-2002", {});
    const absl::Status s = g.Apply(120, bad);
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << bad;
    EXPECT_NE(s.message().find("multiple of 1/2"), std::string::npos) << s;
    EXPECT_EQ(g.a().result(), nullptr);
    EXPECT_EQ(g.a().events(), 2u);
  }
  // 0 and 361 are counts (a 19x19 board).
  EXPECT_EQ(Moveless("cn-2002", {Count(0)}).a().result()->outcome(), v1::Result::WHITE_WINS);
  EXPECT_EQ(Moveless("cn-2002", {Count(361)}).a().result()->outcome(), v1::Result::BLACK_WINS);
}

TEST(CountRecordedTest, WithoutMovesNoClockRunsOutByItself) {
  // One hour each and 5 x 60 s: the count comes four hours later. With no
  // press recorded the engine cannot know whose clock ran, so no flag falls
  // by itself; the count decides.
  Game g = Moveless("cn-2002", {});
  ASSERT_TRUE(g.Apply(4 * 3600, Count(185)).ok());
  ExpectCount(g.a(), v1::Result::BLACK_WINS, 0.75, "B+1.5", 0, 0);
  EXPECT_FALSE(g.a().NextDeadline().has_value());
  // A reported flag is the flag, of either player, at its report.
  Game t = Moveless("cn-2002", {});
  ASSERT_TRUE(t.Apply(3 * 3600, Of("timeExpired", "WHITE")).ok());
  ASSERT_NE(t.a().result(), nullptr);
  EXPECT_EQ(t.a().result()->sgf(), "B+T");
  EXPECT_EQ(t.a().result()->at().seconds(), UnixAt(3 * 3600));
}

TEST(CountRecordedTest, AnAbsentPlayersClockStillRunsOut) {
  // Lateness needs no board: White absent beyond 15 minutes loses (22.2).
  Game g("cn-2002");
  ASSERT_TRUE(g.Apply(0, Created("cn-2002")).ok());
  ASSERT_TRUE(g.Apply(0, R"("gameStarted": {"absent": ["WHITE"]})").ok());
  ASSERT_TRUE(g.Apply(3600, Count(185)).ok());
  ASSERT_NE(g.a().result(), nullptr);
  EXPECT_EQ(g.a().result()->reason(), v1::Result::LATENESS);
}

// 22.5: "读秒至最后1分钟超时而未着子，原则上应按判负裁决，但经读秒方申请，也可视为放弃
// 着手权使用虚着，改判弃权一次，允许续弈". Without the moves the record cannot
// say whose clock ran (§3.3): the request of the player the arbiter reports,
// either one, is the pass, and the count recorded afterwards decides.
constexpr char kWhitePassOnFlag[] = R"("timeExpired": {"color": "WHITE", "passRequested": true})";

// A game recorded without its moves under `version` of cn-2002.
Game MovelessUnder(const std::string& version) {
  absl::StatusOr<Rules> rules = LoadRulesVersion("cn-2002", version);
  EXPECT_TRUE(rules.ok()) << rules.status();
  Game g(*std::move(rules));
  EXPECT_TRUE(g.Apply(0, Created("cn-2002")).ok());
  EXPECT_TRUE(g.Apply(0, R"("gameStarted": {})").ok());
  return g;
}

TEST(CountRecordedTest, EitherPlayersFlagWithPassRequestedIsAPass) {
  Game g = Moveless("cn-2002", {});  // a new game: the latest version, 2002.4 on
  ASSERT_TRUE(g.Apply(3 * 3600, kWhitePassOnFlag).ok());
  ASSERT_EQ(g.rulings().size(), 1u);
  EXPECT_EQ(g.rulings()[0].clause(), "cn-2002/22.5");
  EXPECT_EQ(g.rulings()[0].against(), v1::Ruling::WHITE);
  ASSERT_EQ(g.rulings()[0].sanctions_size(), 1);
  EXPECT_EQ(g.rulings()[0].sanctions(0), v1::COUNTS_AS_PASS);
  EXPECT_EQ(g.a().result(), nullptr);
  // White passed: Black is to move, and White's last period starts again.
  EXPECT_EQ(g.a().State().to_move(), v1::BLACK);
  EXPECT_EQ(g.a().State().clocks().white().periods_remaining(), 1);
  ASSERT_TRUE(g.Apply(3 * 3600 + 600, Count(185)).ok());
  ExpectCount(g.a(), v1::Result::BLACK_WINS, 0.75, "B+1.5", 0, 0);
  // Black's request next is a pass too: both passed, then the count.
  Game both = Moveless(
      "cn-2002", {kWhitePassOnFlag, R"("timeExpired": {"color": "BLACK", "passRequested": true})",
                  Count(184)});
  EXPECT_EQ(both.rulings().size(), 2u);
  ExpectCount(both.a(), v1::Result::WHITE_WINS, 0.25, "W+0.5", 0, 0);
}

TEST(CountRecordedTest, GamesPinnedTo2002_3KeepTheirReadingOfTheRequest) {
  // 2002.3 took only the player it took to be on move (Black, before any
  // play) to have requested: White's request is 22.5's loss on time, and a
  // count afterwards comes after a final result.
  Game old = MovelessUnder("2002.3");
  ASSERT_TRUE(old.Apply(3 * 3600, kWhitePassOnFlag).ok());
  ASSERT_NE(old.a().result(), nullptr);
  EXPECT_EQ(old.a().result()->sgf(), "B+T");
  EXPECT_EQ(old.Apply(3 * 3600 + 600, Count(185)).code(), absl::StatusCode::kFailedPrecondition);
  // 2002.4 reads the same events as a pass, then the count.
  Game latest = MovelessUnder("2002.4");
  ASSERT_TRUE(latest.Apply(3 * 3600, kWhitePassOnFlag).ok());
  ASSERT_TRUE(latest.Apply(3 * 3600 + 600, Count(185)).ok());
  EXPECT_EQ(latest.a().result()->sgf(), "B+1.5");
}

TEST(CountRecordedTest, IncidentsThatNeedTheBoardSayWhatTheyNeed) {
  Game g = Moveless("cn-2002", {});
  absl::Status s = g.Apply(60, R"("deadStones": {"points": []})");
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(s.message().find("countRecorded"), std::string::npos) << s;
  s = g.Apply(60, Of("moveSealed", "WHITE"));
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(s.message().find("adjourned, then resumed"), std::string::npos) << s;
  // Displaced stones on the arbiter's word: a deliberate one is ruled; a
  // disputed one goes to the chief arbiter with nothing to move.
  ASSERT_TRUE(g.Apply(60, R"("stonesDisplaced": {"points": [{"from": "C3", "to": "C4"}], )"
                          R"("agreement": "NONE", "byColor": "WHITE"})")
                  .ok());
  ASSERT_EQ(g.rulings().size(), 1u);
  EXPECT_EQ(g.rulings()[0].clause(), "cn-2002/17.5");
  EXPECT_TRUE(g.rulings()[0].pending());
  // Who is to move is known from the recorded moves only: Black, who moves
  // first (art. 2), until a move is recorded.
  s = g.Apply(70, R"("stoneDropped": {"color": "WHITE", "point": "K10"})");
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(s.message().find("no move of this game is recorded"), std::string::npos) << s;
}

TEST(CountRecordedTest, WithTheBoardRecordedTheCountMustAgreeWithIt) {
  // An empty board counted after two passes: 361 points shared, 180.5 each.
  Game g("cn-2002");
  ASSERT_TRUE(g.Apply(0, Created("cn-2002")).ok());
  ASSERT_TRUE(g.Apply(10, Of("pass", "BLACK")).ok());
  ASSERT_TRUE(g.Apply(20, Of("pass", "WHITE")).ok());
  ASSERT_TRUE(g.Apply(30, R"("deadStones": {"points": []})").ok());
  const std::string before = g.a().result()->SerializeAsString();
  const absl::Status s = g.Apply(40, Count(185));
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(s.message().find("blackCount 185 contradicts the board's own area count 180.5"),
            std::string::npos)
      << s;
  EXPECT_EQ(g.a().events(), 4u);
  // The same count written down again is recorded and changes nothing.
  ASSERT_TRUE(g.Apply(40, Count(180.5)).ok());
  EXPECT_EQ(g.a().result()->SerializeAsString(), before);
  // After a result that was not a count, no count.
  Game r = Moveless("cn-2002", {Of("resign", "BLACK")});
  EXPECT_EQ(r.Apply(300, Count(185)).code(), absl::StatusCode::kFailedPrecondition);
}

TEST(CountRecordedTest, ACountVoidedByTheChiefArbiterIsJudgedAgain) {
  Game g = Moveless("cn-2002", {Count(185)});  // events 1-3
  v1::Event fix = Ev(200, R"("eventVoided": {"event": 3, "reason": "wrong table"})");
  fix.set_authority(v1::CHIEF_ARBITER);
  ASSERT_TRUE(g.Apply(fix).ok());
  EXPECT_EQ(g.a().result(), nullptr);
  ASSERT_TRUE(g.Apply(300, Count(184)).ok());
  EXPECT_EQ(g.a().result()->sgf(), "W+0.5");
}

}  // namespace
}  // namespace arbiter::testing
