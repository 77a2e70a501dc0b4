// A byo-yomi game written as SGF (TM, OT "N x T byo-yomi", BL/OB after each
// move, as sgf_export.h writes them) and read back by import-sgf's path: the
// same time control, and the adjudicator ends with the same periods left.
#include <string>
#include <vector>

#include "adjudicator/engine/sgf.h"
#include "adjudicator/engine/sgf_events.h"
#include "adjudicator/engine/sgf_export.h"
#include "google/protobuf/util/message_differencer.h"
#include "gtest/gtest.h"
#include "tests/engine/engine_test_util.h"

namespace arbiter::testing {
namespace {

TEST(SgfRoundTripTest, AByoYomiGameKeepsItsClockThroughExportAndImport) {
  const std::string tc = R"({"mainTime": "60s", "byoYomi": {"periods": 3, "periodTime": "30s"}})";
  std::vector<v1::Event> events = {
      Ev(0, Created("cn-2002", "SAME_SITE", tc)),
      Ev(0, R"("gameStarted": {})"),
      Ev(50, Move("BLACK", "Q16")),   // Black 50 s of main time
      Ev(80, Move("WHITE", "D4")),    // White 30 s
      Ev(130, Move("BLACK", "Q4")),   // Black: 10 s of main, then 40 s: one period used
      Ev(200, Move("WHITE", "D16")),  // White: 30 s of main, then 40 s: one period
      Ev(210, Move("BLACK", "C3")),   // 10 s: free
      Ev(265, Move("WHITE", "R3")),   // 55 s: one more period
  };
  Game played("cn-2002");
  for (const v1::Event& e : events) ASSERT_TRUE(played.Apply(e).ok()) << e.ShortDebugString();
  const v1::GameState before = played.a().State();
  ASSERT_EQ(before.clocks().black().periods_remaining(), 2);
  ASSERT_EQ(before.clocks().white().periods_remaining(), 1);
  ASSERT_TRUE(played.rulings().empty());

  absl::StatusOr<std::string> sgf = ExportSgf(*LoadRules("cn-2002"), events, "pin");
  ASSERT_TRUE(sgf.ok()) << sgf.status();
  absl::StatusOr<SgfGame> game = ParseSgf(*sgf);
  ASSERT_TRUE(game.ok()) << game.status() << "\n" << *sgf;
  absl::StatusOr<std::vector<v1::Event>> imported = SgfToEvents(*game, "round-trip");
  ASSERT_TRUE(imported.ok()) << imported.status();
  EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(
      (*imported)[0].game_created().time_control(), events[0].game_created().time_control()))
      << *sgf;
  Game again("cn-2002");
  for (const v1::Event& e : *imported) ASSERT_TRUE(again.Apply(e).ok()) << e.ShortDebugString();
  EXPECT_TRUE(again.rulings().empty());
  EXPECT_EQ(again.a().result(), nullptr);
  const v1::GameState after = again.a().State();
  EXPECT_EQ(after.clocks().black().periods_remaining(),
            before.clocks().black().periods_remaining());
  EXPECT_EQ(after.clocks().white().periods_remaining(),
            before.clocks().white().periods_remaining());
  EXPECT_EQ(after.clocks().black().main_remaining().seconds(), 0);
}

// A move the chief arbiter voided (eventVoided) is not on the board the
// fold keeps (DOMAIN.md §3.1): the SGF has no node for it, says the
// correction in a comment, and reads back as the same game. Before, the
// voided stone was a B node followed by Black's next move, which every SGF
// reader played (and import-sgf refused as a move out of turn).
TEST(SgfRoundTripTest, AVoidedMoveHasNoNodeAndTheCorrectionIsSaid) {
  std::vector<v1::Event> events = {
      Ev(0, Created("cn-2002")),
      Ev(0, R"("gameStarted": {})"),
      Ev(10, Move("BLACK", "Q16")),
      Ev(20, Move("WHITE", "D4")),
      Ev(30, Move("BLACK", "D3")),  // event 5, entered at the wrong point
      Ev(40, R"("eventVoided": {"event": 5, "reason": "entered at D3; the sheet ] says C4"})"),
      Ev(50, Move("BLACK", "C4")),
      Ev(60, Move("WHITE", "Q4")),
  };
  Game played("cn-2002");
  for (const v1::Event& e : events) ASSERT_TRUE(played.Apply(e).ok()) << e.ShortDebugString();
  ASSERT_EQ(played.a().State().move_number(), 4);

  absl::StatusOr<std::string> sgf = ExportSgf(*LoadRules("cn-2002"), events, "pin");
  ASSERT_TRUE(sgf.ok()) << sgf.status();
  EXPECT_EQ(sgf->find("B[dq]"), std::string::npos) << *sgf;   // D3
  EXPECT_NE(sgf->find(";B[cp]"), std::string::npos) << *sgf;  // C4
  EXPECT_NE(sgf->find("Event 5 voided by the chief arbiter: entered at D3; the sheet \\] says C4"),
            std::string::npos)
      << *sgf;
  absl::StatusOr<std::string> public_sgf = ExportPublicSgf(*LoadRules("cn-2002"), events);
  ASSERT_TRUE(public_sgf.ok()) << public_sgf.status();
  EXPECT_EQ(public_sgf->find("B[dq]"), std::string::npos) << *public_sgf;

  absl::StatusOr<SgfGame> game = ParseSgf(*sgf);
  ASSERT_TRUE(game.ok()) << game.status() << "\n" << *sgf;
  absl::StatusOr<std::vector<v1::Event>> imported = SgfToEvents(*game, "voided");
  ASSERT_TRUE(imported.ok()) << imported.status() << "\n" << *sgf;
  Game again("cn-2002");
  for (const v1::Event& e : *imported) ASSERT_TRUE(again.Apply(e).ok()) << e.ShortDebugString();
  EXPECT_TRUE(again.rulings().empty());
  EXPECT_EQ(again.a().State().move_number(), 4);
}

// A game counted on its board: its last node marks the stones agreed dead
// (MA) and says so; the record still reads back as the same moves (an
// importer takes marks for no event).
TEST(SgfRoundTripTest, ACountedGameMarksItsDeadStonesOnItsLastNode) {
  std::vector<v1::Event> events = {
      Ev(0, Created("cn-2002")),
      Ev(0, R"("gameStarted": {})"),
      Ev(10, Move("BLACK", "Q16")),
      Ev(20, Move("WHITE", "R17")),
      Ev(30, Of("pass", "BLACK")),
      Ev(40, Of("pass", "WHITE")),
      Ev(50, R"("deadStones": {"points": ["R17"]})"),
  };
  absl::StatusOr<std::string> sgf = ExportSgf(*LoadRules("cn-2002"), events, "pin");
  ASSERT_TRUE(sgf.ok()) << sgf.status();
  EXPECT_NE(sgf->find(";W[]WL[3580]MA[qc]C["), std::string::npos) << *sgf;  // R17
  EXPECT_NE(sgf->find("Dead stones (marked X, taken off for the count): R17"), std::string::npos)
      << *sgf;
  absl::StatusOr<std::string> public_sgf = ExportPublicSgf(*LoadRules("cn-2002"), events);
  ASSERT_TRUE(public_sgf.ok()) << public_sgf.status();
  EXPECT_NE(public_sgf->find(";W[]WL[3580]MA[qc])"), std::string::npos) << *public_sgf;
  absl::StatusOr<SgfGame> game = ParseSgf(*sgf);
  ASSERT_TRUE(game.ok()) << game.status() << "\n" << *sgf;
  absl::StatusOr<std::vector<v1::Event>> imported = SgfToEvents(*game, "counted");
  ASSERT_TRUE(imported.ok()) << imported.status() << "\n" << *sgf;
  Game again("cn-2002");
  for (const v1::Event& e : *imported) ASSERT_TRUE(again.Apply(e).ok()) << e.ShortDebugString();
  EXPECT_EQ(again.a().State().move_number(), 4);
}

// Black's stones set up with White to move are a handicap: HA beside AB
// (FF[4]), which import-sgf reads back as the same setup.
TEST(SgfRoundTripTest, AHandicapSetupSaysHA) {
  std::vector<v1::Event> events = {
      Ev(0, Created("cn-2002", "SAME_SITE", kHourAndByoYomi,
                    R"("setup": {"black": ["D4", "Q16"], "firstToMove": "WHITE"})")),
      Ev(0, R"("gameStarted": {})"),
      Ev(10, Move("WHITE", "Q4")),
  };
  absl::StatusOr<std::string> sgf = ExportSgf(*LoadRules("cn-2002"), events, "pin");
  ASSERT_TRUE(sgf.ok()) << sgf.status();
  EXPECT_NE(sgf->find("AB[dp][pd]PL[W]HA[2]"), std::string::npos) << *sgf;
  absl::StatusOr<SgfGame> game = ParseSgf(*sgf);
  ASSERT_TRUE(game.ok()) << game.status();
  absl::StatusOr<std::vector<v1::Event>> imported = SgfToEvents(*game, "handicap");
  ASSERT_TRUE(imported.ok()) << imported.status();
  EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(
      (*imported)[0].game_created().setup(), events[0].game_created().setup()))
      << (*imported)[0].game_created().ShortDebugString();
}

}  // namespace
}  // namespace arbiter::testing
