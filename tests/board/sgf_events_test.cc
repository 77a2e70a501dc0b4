#include "adjudicator/engine/sgf_events.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "adjudicator/engine/sgf.h"
#include "google/protobuf/util/time_util.h"
#include "gtest/gtest.h"

namespace arbiter {
namespace {

using google::protobuf::util::TimeUtil;

// The day given for records without a date (import-sgf --date).
const absl::CivilDay kUndated(2026, 5, 1);

std::vector<v1::Event> Events(const std::string& sgf, const std::string& fallback = "file") {
  const absl::StatusOr<SgfGame> game = ParseSgf(sgf);
  EXPECT_TRUE(game.ok()) << game.status();
  if (!game.ok()) return {};
  const absl::StatusOr<std::vector<v1::Event>> events = SgfToEvents(*game, fallback, kUndated);
  EXPECT_TRUE(events.ok()) << events.status();
  return events.ok() ? *events : std::vector<v1::Event>{};
}

std::string Error(const std::string& sgf) {
  const absl::StatusOr<SgfGame> game = ParseSgf(sgf);
  EXPECT_TRUE(game.ok()) << game.status();
  if (!game.ok()) return "";
  const absl::StatusOr<std::vector<v1::Event>> events = SgfToEvents(*game, "file", kUndated);
  EXPECT_FALSE(events.ok());
  return events.ok() ? "" : std::string(events.status().message());
}

TEST(SgfEventsTest, UntimedRecordHasMovesOneSecondApart) {
  const std::vector<v1::Event> events = Events("(;GN[Final]DT[Spring]KM[5.5];B[pd];W[];B[dd])");
  ASSERT_EQ(events.size(), 5u);
  const v1::GameCreated& created = events[0].game_created();
  EXPECT_EQ(created.game_id(), "file");  // GN is a title, not the id
  EXPECT_EQ(created.ruleset(), "cn-2002");
  EXPECT_EQ(created.board_size(), 19);
  EXPECT_EQ(created.komi_stones(), 2.75);
  EXPECT_FALSE(created.has_time_control());
  EXPECT_FALSE(created.has_setup());
  // DT without a full date: the day given for undated records.
  EXPECT_EQ(TimeUtil::ToString(created.scheduled_start()), "2026-05-01T00:00:00Z");
  EXPECT_EQ(TimeUtil::ToString(events[1].at()), "2026-05-01T00:00:00Z");
  EXPECT_TRUE(events[1].has_game_started());
  EXPECT_EQ(events[2].move().point(), "Q16");
  EXPECT_EQ(TimeUtil::ToString(events[2].at()), "2026-05-01T00:00:01Z");
  EXPECT_EQ(events[3].pass().color(), v1::WHITE);
  EXPECT_EQ(TimeUtil::ToString(events[4].at()), "2026-05-01T00:00:03Z");
}

// A record's game is never dated by invention: without a date in DT and
// without a day from the caller it is refused; DT, when it has one, wins.
TEST(SgfEventsTest, AnUndatedRecordNeedsTheCallersDay) {
  for (const char* sgf : {"(;B[pd])", "(;DT[Spring 1996];B[pd])", "(;DT[1996-13];B[pd])"}) {
    const absl::StatusOr<SgfGame> game = ParseSgf(sgf);
    ASSERT_TRUE(game.ok()) << game.status();
    EXPECT_FALSE(SgfDate(*game).has_value()) << sgf;
    const absl::StatusOr<std::vector<v1::Event>> events = SgfToEvents(*game, "file");
    ASSERT_FALSE(events.ok()) << sgf;
    EXPECT_EQ(events.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_NE(events.status().message().find("cannot be dated"), std::string::npos)
        << events.status();
  }
  const absl::StatusOr<SgfGame> dated = ParseSgf("(;DT[2019-03-07,08];B[pd])");
  ASSERT_TRUE(dated.ok());
  EXPECT_EQ(SgfDate(*dated), absl::CivilDay(2019, 3, 7));
  const absl::StatusOr<std::vector<v1::Event>> events = SgfToEvents(*dated, "file", kUndated);
  ASSERT_TRUE(events.ok()) << events.status();
  EXPECT_EQ(TimeUtil::ToString(events->at(0).at()), "2019-03-07T00:00:00Z");
}

// SGF FF[4], DT: "Partial dates are allowed: YYYY - game was played in
// YYYY; YYYY-MM - game was played in YYYY, month MM", also in lists
// ("1996-05,06 = played in May, June 1996"). Such a game is dated to the
// first day of the span, and the import says so; the rules stay the default.
TEST(SgfEventsTest, APartialDateIsTheFirstDayOfItsSpan) {
  struct Case {
    const char* dt;
    const char* start;
  };
  for (const Case& c :
       {Case{"1996-08", "1996-08-01T00:00:00Z"}, Case{"1996", "1996-01-01T00:00:00Z"},
        Case{"1996-05,06", "1996-05-01T00:00:00Z"}, Case{"1996,1997", "1996-01-01T00:00:00Z"},
        Case{"1996-12,1997-01", "1996-12-01T00:00:00Z"}}) {
    const absl::StatusOr<SgfGame> game = ParseSgf(std::string("(;DT[") + c.dt + "];B[pd])");
    ASSERT_TRUE(game.ok()) << game.status();
    // No day from the caller: the record's own partial date dates it.
    const absl::StatusOr<std::vector<v1::Event>> events = SgfToEvents(*game, "file");
    ASSERT_TRUE(events.ok()) << c.dt << ": " << events.status();
    const v1::GameCreated& created = events->at(0).game_created();
    EXPECT_EQ(TimeUtil::ToString(created.scheduled_start()), c.start) << c.dt;
    EXPECT_EQ(TimeUtil::ToString(events->at(0).at()), c.start) << c.dt;
    EXPECT_EQ(created.ruleset(), "cn-2002") << c.dt;
    EXPECT_TRUE(created.ruleset_version().empty()) << c.dt;
    EXPECT_EQ(SgfDateNote(*game), absl::StrCat("DT[", c.dt, "] names no day: the game is dated ",
                                               std::string(c.start).substr(0, 10),
                                               ", the first day of the span it names"));
  }
  // A full date needs no note, nor does a list starting with one.
  for (const char* dt : {"1996-08-16", "1996-05-06,07"}) {
    const absl::StatusOr<SgfGame> game = ParseSgf(std::string("(;DT[") + dt + "];B[pd])");
    ASSERT_TRUE(game.ok()) << game.status();
    EXPECT_EQ(SgfDateNote(*game), "") << dt;
  }
}

TEST(SgfEventsTest, FallbackIdAndNoKomi) {
  const std::vector<v1::Event> events = Events("(;SZ[13];B[gg])", "my_game");
  ASSERT_FALSE(events.empty());
  EXPECT_EQ(events[0].game_created().game_id(), "my_game");
  EXPECT_FALSE(events[0].game_created().has_komi_stones());
  EXPECT_EQ(events[2].move().point(), "G7");
}

TEST(SgfEventsTest, WhiteFirstWithoutPlayerPropertyIsRecordedInSetup) {
  const std::vector<v1::Event> events = Events("(;SZ[9];W[ee];B[cc])");
  ASSERT_FALSE(events.empty());
  EXPECT_EQ(events[0].game_created().setup().first_to_move(), v1::WHITE);
  EXPECT_EQ(events[0].game_created().setup().black_size(), 0);
}

TEST(SgfEventsTest, TimesFromRemainingTime) {
  const std::vector<v1::Event> events =
      Events("(;DT[2026-05-01];B[pd]BL[3000];W[dd]WL[3100];B[pp]BL[2950];W[dp];B[]BL[2890])");
  ASSERT_EQ(events.size(), 7u);
  // The largest remaining time, 3100 s, rounds up to 52 minutes (3120 s).
  EXPECT_EQ(events[0].game_created().time_control().main_time().seconds(), 52 * 60);
  EXPECT_EQ(TimeUtil::ToString(events[0].at()), "2026-05-01T00:00:00Z");
  EXPECT_EQ(TimeUtil::ToString(events[2].at()), "2026-05-01T00:02:00Z");  // Black used 120 s
  EXPECT_EQ(TimeUtil::ToString(events[3].at()), "2026-05-01T00:02:20Z");  // White used 20 s
  EXPECT_EQ(TimeUtil::ToString(events[4].at()), "2026-05-01T00:03:10Z");  // 3000 - 2950
  EXPECT_EQ(TimeUtil::ToString(events[5].at()), "2026-05-01T00:03:10Z");  // no WL: no time
  EXPECT_EQ(TimeUtil::ToString(events[6].at()), "2026-05-01T00:04:10Z");  // 2950 - 2890
}

// Remaining times that go up (byo-yomi the record does not describe) or
// reach zero are no main-time clock: the moves keep their times, the game
// gets no time control, and the adjudicator rules no loss on time where the
// record plays on (the sgf fuzzer's WL[20] ... WL[.0] ... WL[.1] was ruled
// B+T mid-record).
TEST(SgfEventsTest, ByoYomiOrAClockAtZeroGetsNoTimeControl) {
  for (const char* sgf : {"(;DT[2026-05-01];B[pd]BL[3000];W[dd]WL[3100];B[pp]BL[3050];W[dp])",
                          "(;DT[2026-05-01];B[pd]BL[60];W[dd]WL[0];B[pp]BL[50];W[dp])"}) {
    const std::vector<v1::Event> events = Events(sgf);
    ASSERT_EQ(events.size(), 6u) << sgf;
    EXPECT_FALSE(events[0].game_created().has_time_control()) << sgf;
  }
  const std::vector<v1::Event> events =
      Events("(;DT[2026-05-01];B[pd]BL[3000];W[dd]WL[3100];B[pp]BL[3050];W[dp])");
  EXPECT_EQ(TimeUtil::ToString(events[2].at()), "2026-05-01T00:02:00Z");  // 3120 - 3000
  EXPECT_EQ(TimeUtil::ToString(events[4].at()), "2026-05-01T00:02:20Z");  // went up: free
}

// OT "5x30 byo-yomi" (as KGS, CGoban and OGS write it): TM of main time,
// then 5 periods of 30 s. A node with OB/OW is in byo-yomi: the periods left
// with the current one, BL/WL the time left in it.
TEST(SgfEventsTest, ByoYomiRecordKeepsItsClock) {
  const std::vector<v1::Event> events = Events(
      "(;DT[2026-05-01]TM[60]OT[5x30 byo-yomi]"
      ";B[pd]BL[50];W[dd]WL[40]"            // 10 s and 20 s of main time
      ";B[pp]BL[20]OB[5];W[dp]WL[25]OW[4]"  // into byo-yomi: 50 + 10 s; 40 + 30 + 5 s
      ";B[cc]BL[28.5]OB[5])");              // 1.5 s of a period: costs nothing
  ASSERT_EQ(events.size(), 7u);
  const v1::TimeControl& tc = events[0].game_created().time_control();
  EXPECT_EQ(tc.main_time().seconds(), 60);
  EXPECT_EQ(tc.byo_yomi().periods(), 5);
  EXPECT_EQ(tc.byo_yomi().period_time().seconds(), 30);
  EXPECT_EQ(TimeUtil::ToString(events[2].at()), "2026-05-01T00:00:10Z");
  EXPECT_EQ(TimeUtil::ToString(events[3].at()), "2026-05-01T00:00:30Z");
  EXPECT_EQ(TimeUtil::ToString(events[4].at()), "2026-05-01T00:01:30Z");
  EXPECT_EQ(TimeUtil::ToString(events[5].at()), "2026-05-01T00:02:45Z");
  EXPECT_EQ(TimeUtil::ToString(events[6].at()), "2026-05-01T00:02:46.500Z");
}

TEST(SgfEventsTest, ByoYomiWithoutTmTakesTheMainTimeFromTheRecord) {
  const std::vector<v1::Event> events =
      Events("(;OT[3x60 Byo-Yomi];B[pd]BL[1750];W[dd]WL[1790];B[pp]BL[45]OB[3])");
  ASSERT_EQ(events.size(), 5u);
  const v1::TimeControl& tc = events[0].game_created().time_control();
  EXPECT_EQ(tc.main_time().seconds(), 30 * 60);  // 1790 s rounded up to the minute
  EXPECT_EQ(tc.byo_yomi().periods(), 3);
  EXPECT_EQ(tc.byo_yomi().period_time().seconds(), 60);
}

// A record the byo-yomi reading does not fit (a period count that rises, a
// period's time out of (0, T], main time after byo-yomi), or an OT that is
// not byo-yomi, gets no time control rather than invented flags.
TEST(SgfEventsTest, ByoYomiTheRecordContradictsGetsNoTimeControl) {
  for (const char* sgf :
       {"(;TM[60]OT[5x30 byo-yomi];B[pd]BL[20]OB[3];W[dd];B[pp]BL[20]OB[4])",
        "(;TM[60]OT[5x30 byo-yomi];B[pd]BL[20]OB[0])",
        "(;TM[60]OT[5x30 byo-yomi];B[pd]BL[31]OB[5])",
        "(;TM[60]OT[5x30 byo-yomi];B[pd]BL[20]OB[5];W[dd];B[pp]BL[10])",
        "(;TM[600]OT[25/600 Canadian];B[pd]BL[20]OB[25];W[dd];B[pp]BL[590]OB[24])"}) {
    const std::vector<v1::Event> events = Events(sgf);
    ASSERT_FALSE(events.empty()) << sgf;
    EXPECT_FALSE(events[0].game_created().time_control().has_byo_yomi()) << sgf;
    EXPECT_FALSE(events[0].game_created().has_time_control()) << sgf;
  }
}

TEST(SgfEventsTest, ResignationNamesTheLoser) {
  std::vector<v1::Event> events = Events("(;RE[B+Resign];B[pd];W[dd])");
  ASSERT_EQ(events.size(), 5u);
  EXPECT_EQ(events[4].resign().color(), v1::WHITE);
  EXPECT_EQ(TimeUtil::ToString(events[4].at()), "2026-05-01T00:00:03Z");
  events = Events("(;RE[w+r];B[pd];W[dd])");
  ASSERT_EQ(events.size(), 5u);
  EXPECT_EQ(events[4].resign().color(), v1::BLACK);
  EXPECT_EQ(Events("(;RE[W+3.5];B[pd];W[dd])").size(), 4u);
  EXPECT_EQ(Events("(;RE[B+T];B[pd];W[dd])").size(), 4u);
}

TEST(SgfEventsTest, IllegalMovesAreRefusedWithTheirPlace) {
  EXPECT_EQ(Error("(;SZ[9];B[ee]\n;W[ee])"),
            "line 2, column 2: illegal move: White at E5 (occupied)");
  EXPECT_EQ(Error("(;SZ[9]AW[ab][ba];B[aa])"),
            "line 1, column 19: illegal move: Black at A9 (suicide)");
  // A setup stone counts as occupying its point.
  EXPECT_EQ(Error("(;SZ[9]AB[ee];W[ee])"),
            "line 1, column 15: illegal move: White at E5 (occupied)");
}

// Found by the sgf fuzzer: only a four-digit year is a year, and a record
// whose times would run past what an event can carry is refused.
TEST(SgfEventsTest, TimesStayWithinTheCalendar) {
  for (const char* dt : {"200201-3-2", "0000-01-01", "96-05-01xx"}) {
    const std::vector<v1::Event> events = Events(std::string("(;DT[") + dt + "];B[pd])");
    ASSERT_FALSE(events.empty()) << dt;
    EXPECT_EQ(TimeUtil::ToString(events[0].at()), "2026-05-01T00:00:00Z") << dt;
  }
  EXPECT_EQ(TimeUtil::ToString(Events("(;DT[9999-12-31];B[pd])")[2].at()), "9999-12-31T00:00:01Z");
  // Black's clock goes up (costing nothing) and down again: a year each time.
  EXPECT_EQ(Error("(;DT[9999-12-31];B[pd]BL[31536000];W[dd];B[pp]BL[0])"),
            "line 1, column 42: the record's times run past the year 9999");
}

}  // namespace
}  // namespace arbiter
