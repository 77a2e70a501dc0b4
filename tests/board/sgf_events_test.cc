#include "adjudicator/sgf_events.h"

#include <string>
#include <vector>

#include "adjudicator/sgf.h"
#include "google/protobuf/util/time_util.h"
#include "gtest/gtest.h"

namespace arbiter {
namespace {

using google::protobuf::util::TimeUtil;

std::vector<v1::Event> Events(const std::string& sgf, const std::string& fallback = "file") {
  const absl::StatusOr<SgfGame> game = ParseSgf(sgf);
  EXPECT_TRUE(game.ok()) << game.status();
  if (!game.ok()) return {};
  const absl::StatusOr<std::vector<v1::Event>> events = SgfToEvents(*game, fallback);
  EXPECT_TRUE(events.ok()) << events.status();
  return events.ok() ? *events : std::vector<v1::Event>{};
}

std::string Error(const std::string& sgf) {
  const absl::StatusOr<SgfGame> game = ParseSgf(sgf);
  EXPECT_TRUE(game.ok()) << game.status();
  if (!game.ok()) return "";
  const absl::StatusOr<std::vector<v1::Event>> events = SgfToEvents(*game, "file");
  EXPECT_FALSE(events.ok());
  return events.ok() ? "" : std::string(events.status().message());
}

TEST(SgfEventsTest, UntimedRecordHasMovesOneSecondApart) {
  const std::vector<v1::Event> events = Events("(;GN[Final]DT[1996]KM[5.5];B[pd];W[];B[dd])");
  ASSERT_EQ(events.size(), 5u);
  const v1::GameCreated& created = events[0].game_created();
  EXPECT_EQ(created.game_id(), "file");  // GN is a title, not the id
  EXPECT_EQ(created.ruleset(), "cn-2002");
  EXPECT_EQ(created.board_size(), 19);
  EXPECT_EQ(created.komi_stones(), 2.75);
  EXPECT_FALSE(created.has_time_control());
  EXPECT_FALSE(created.has_setup());
  // DT without a full date: the default start.
  EXPECT_EQ(TimeUtil::ToString(created.scheduled_start()), "2000-01-01T00:00:00Z");
  EXPECT_EQ(TimeUtil::ToString(events[1].at()), "2000-01-01T00:00:00Z");
  EXPECT_TRUE(events[1].has_game_started());
  EXPECT_EQ(events[2].move().point(), "Q16");
  EXPECT_EQ(TimeUtil::ToString(events[2].at()), "2000-01-01T00:00:01Z");
  EXPECT_EQ(events[3].pass().color(), v1::WHITE);
  EXPECT_EQ(TimeUtil::ToString(events[4].at()), "2000-01-01T00:00:03Z");
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
      Events("(;DT[2026-05-01];B[pd]BL[3000];W[dd]WL[3100];B[pp]BL[3050];W[dp];B[]BL[2990])");
  ASSERT_EQ(events.size(), 7u);
  // The largest remaining time, 3100 s, rounds up to 52 minutes (3120 s).
  EXPECT_EQ(events[0].game_created().time_control().main_time().seconds(), 52 * 60);
  EXPECT_EQ(TimeUtil::ToString(events[0].at()), "2026-05-01T00:00:00Z");
  EXPECT_EQ(TimeUtil::ToString(events[2].at()), "2026-05-01T00:02:00Z");  // Black used 120 s
  EXPECT_EQ(TimeUtil::ToString(events[3].at()), "2026-05-01T00:02:20Z");  // White used 20 s
  EXPECT_EQ(TimeUtil::ToString(events[4].at()), "2026-05-01T00:02:20Z");  // remaining went up
  EXPECT_EQ(TimeUtil::ToString(events[5].at()), "2026-05-01T00:02:20Z");  // no WL: no time
  EXPECT_EQ(TimeUtil::ToString(events[6].at()), "2026-05-01T00:03:20Z");  // 3050 - 2990
}

TEST(SgfEventsTest, ResignationNamesTheLoser) {
  std::vector<v1::Event> events = Events("(;RE[B+Resign];B[pd];W[dd])");
  ASSERT_EQ(events.size(), 5u);
  EXPECT_EQ(events[4].resign().color(), v1::WHITE);
  EXPECT_EQ(TimeUtil::ToString(events[4].at()), "2000-01-01T00:00:03Z");
  events = Events("(;RE[w+r];B[pd];W[dd])");
  ASSERT_EQ(events.size(), 5u);
  EXPECT_EQ(events[4].resign().color(), v1::BLACK);
  EXPECT_EQ(Events("(;RE[W+3.5];B[pd];W[dd])").size(), 4u);
  EXPECT_EQ(Events("(;RE[B+T];B[pd];W[dd])").size(), 4u);
}

TEST(SgfEventsTest, IllegalMovesAreRefusedWithTheirPlace) {
  EXPECT_EQ(Error("(;SZ[9];B[ee]\n;W[ee])"), "line 2, column 2: illegal move: White at E5 (occupied)");
  EXPECT_EQ(Error("(;SZ[9]AW[ab][ba];B[aa])"),
            "line 1, column 19: illegal move: Black at A9 (suicide)");
  // A setup stone counts as occupying its point.
  EXPECT_EQ(Error("(;SZ[9]AB[ee];W[ee])"), "line 1, column 15: illegal move: White at E5 (occupied)");
}

}  // namespace
}  // namespace arbiter
