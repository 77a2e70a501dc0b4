// Issue 29 through the real binaries: a game recorded without its moves and
// ended by the arbiter's count (`countRecorded`) reads the same in `show`,
// `history`, the SGF export and `verify`; a game created by mistake is
// cancelled (`arbiter game cancel`) by the chief arbiter only, stays in the
// ledger, refuses what follows and re-adjudicates alike. A board counted
// (`deadStones`) names the stones agreed dead in `show`.
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "tests/support/arbiter_process.h"
#include "tests/support/files.h"
#include "tests/support/temp_dir.h"

namespace arbiter::testing {
namespace {

// Table 7, no move recorded: Black's phone rang (23.7, a penalty stone),
// the count three hours later, long past the main time: 185 - 180.5 - 3.75
// - 1 = -0.25, White by a quarter stone (W+0.5).
constexpr char kCounted[] =
    R"({"at": "2026-05-01T09:00:00Z", "gameCreated": {"gameId": "t7", "ruleset": "cn-2002", "boardSize": 19, "black": {"name": "Chen Hao"}, "white": {"name": "Zhou Rui"}, "venue": "SAME_SITE", "scheduledStart": "2026-05-01T09:00:00Z", "timeControl": {"mainTime": "3600s", "byoYomi": {"periods": 5, "periodTime": "60s"}}, "table": 7}}
{"at": "2026-05-01T09:00:00Z", "gameStarted": {}}
{"at": "2026-05-01T09:40:00Z", "phoneRang": {"color": "BLACK"}}
{"at": "2026-05-01T12:10:00Z", "countRecorded": {"blackCount": 185}}
)";

// A 9x9 game played out and counted on its board, White's D4 agreed dead.
constexpr char kBoardCounted[] =
    R"({"at": "2026-05-01T09:00:00Z", "gameCreated": {"gameId": "n9", "ruleset": "cn-2002", "boardSize": 9, "black": {"name": "Ma Li"}, "white": {"name": "Xu Yan"}, "venue": "SAME_SITE"}}
{"at": "2026-05-01T09:00:00Z", "gameStarted": {}}
{"at": "2026-05-01T09:00:10Z", "move": {"color": "BLACK", "point": "E5"}}
{"at": "2026-05-01T09:00:20Z", "move": {"color": "WHITE", "point": "D4"}}
{"at": "2026-05-01T09:00:30Z", "pass": {"color": "BLACK"}}
{"at": "2026-05-01T09:00:40Z", "pass": {"color": "WHITE"}}
)";
constexpr char kBoardCountedDead[] =
    R"({"at": "2026-05-01T09:01:00Z", "deadStones": {"points": ["d4"]}}
)";

constexpr char kMistake[] =
    R"({"at": "2026-05-01T09:00:00Z", "gameCreated": {"gameId": "oops", "ruleset": "cn-2002", "boardSize": 19, "black": {"name": "Chen Hao"}, "white": {"name": "Chen Hao"}, "venue": "SAME_SITE", "scheduledStart": "2026-05-01T09:00:00Z"}}
{"at": "2026-05-01T09:00:00Z", "gameStarted": {}}
)";

TEST(CountCancelTest, ACountWithoutMovesReadsAlikeEverywhere) {
  TempDir dir("arbiter-count");
  const std::string data = dir.File("data");
  const std::string chief = CreateToken(data, "CHIEF_ARBITER", "chief");
  auto server = ServerProcess::Start(data);
  ASSERT_NE(server, nullptr);
  const std::string addr = server->address();
  const std::vector<std::pair<std::string, std::string>> as_chief = {{"ARBITER_TOKEN", chief}};
  ProcessResult r = RunCli({"record", "-"}, kCounted, addr, as_chief);
  ASSERT_EQ(r.exit, 0) << r.out << r.err;

  r = RunCli({"show", "t7", "--json"}, "", addr, as_chief);
  ASSERT_EQ(r.exit, 0) << r.err;
  EXPECT_TRUE(absl::StrContains(r.out, R"("blackCount":185)")) << r.out;
  EXPECT_TRUE(absl::StrContains(r.out, R"("marginStones":0.25)")) << r.out;
  EXPECT_TRUE(absl::StrContains(r.out, R"("sgf":"W+0.5")")) << r.out;
  EXPECT_TRUE(absl::StrContains(r.out, R"("clause":"cn-2002/9")")) << r.out;

  r = RunCli({"history", "t7"}, "", addr, as_chief);
  ASSERT_EQ(r.exit, 0) << r.err;
  EXPECT_TRUE(absl::StrContains(r.out, "countRecorded")) << r.out;

  r = RunCli({"export", "t7", "--format", "sgf"}, "", addr, as_chief);
  ASSERT_EQ(r.exit, 0) << r.err;
  EXPECT_TRUE(absl::StrContains(r.out, "RE[W+0.5]")) << r.out;

  r = RunCli({"verify", "t7"}, "", addr, as_chief);
  EXPECT_EQ(r.exit, 0) << r.out << r.err;
  EXPECT_TRUE(absl::StrContains(r.out, "same rulings")) << r.out;

  // Offline, the same file: the text report says White wins by a quarter.
  const std::string file = dir.File("t7.jsonl");
  WriteFile(file, kCounted);
  r = RunArbiter({"adjudicate", file});
  ASSERT_EQ(r.exit, 0) << r.err;
  EXPECT_TRUE(absl::StrContains(r.out, "[RE W+0.5]")) << r.out;
  EXPECT_TRUE(absl::StrContains(r.out, "penalty stones B 1 W 0")) << r.out;
}

// Counted on its board: before the count `show` says play ended uncounted;
// after it, it names the stones agreed dead, which the diagram still shows
// where they stood.
TEST(CountCancelTest, ABoardCountedShowsItsDeadStones) {
  TempDir dir("arbiter-dead");
  auto server = ServerProcess::Start(dir.File("data"));
  ASSERT_NE(server, nullptr);
  ProcessResult r = RunCli({"record", "-"}, kBoardCounted, server->address());
  ASSERT_EQ(r.exit, 0) << r.out << r.err;
  // Two passes, no count yet: `show` says so, as `adjudicate` does.
  r = RunCli({"show", "n9"}, "", server->address());
  ASSERT_EQ(r.exit, 0) << r.err;
  EXPECT_TRUE(absl::StrContains(r.out, "result: 双方虚着，未计算 / Play ended with two passes"))
      << r.out;
  r = RunCli({"record", "-", "--game", "n9"}, kBoardCountedDead, server->address());
  ASSERT_EQ(r.exit, 0) << r.out << r.err;
  r = RunCli({"show", "n9"}, "", server->address());
  ASSERT_EQ(r.exit, 0) << r.err;
  EXPECT_TRUE(absl::StrContains(r.out, "dead stones (agreed, taken off for the count): D4\n"))
      << r.out;
  EXPECT_TRUE(absl::StrContains(r.out, "  4 . . . O . . . . . 4")) << r.out;
  r = RunCli({"show", "n9", "--json"}, "", server->address());
  ASSERT_EQ(r.exit, 0) << r.err;
  EXPECT_TRUE(absl::StrContains(r.out, R"("deadStones":["D4"])")) << r.out;
}

TEST(CountCancelTest, OnlyTheChiefArbiterCancelsAndTheGameStaysInTheLedger) {
  TempDir dir("arbiter-cancel");
  const std::string data = dir.File("data");
  const std::string chief = CreateToken(data, "CHIEF_ARBITER", "chief");
  const std::string arbiter = CreateToken(data, "ARBITER", "board1");
  auto server = ServerProcess::Start(data);
  ASSERT_NE(server, nullptr);
  const std::string addr = server->address();
  const std::vector<std::pair<std::string, std::string>> as_chief = {{"ARBITER_TOKEN", chief}};
  ProcessResult r = RunCli({"record", "-"}, kMistake, addr, as_chief);
  ASSERT_EQ(r.exit, 0) << r.out << r.err;

  const std::vector<std::string> cancel = {
      "game", "cancel", "oops", "--reason", "created twice", "--at", "2026-05-01T09:05:00Z"};
  r = RunCli(cancel, "", addr, {{"ARBITER_TOKEN", arbiter}});
  EXPECT_EQ(r.exit, 4) << r.out << r.err;  // PERMISSION_DENIED
  EXPECT_TRUE(absl::StrContains(r.err, "may not record gameCancelled")) << r.err;
  r = RunCli({"game", "cancel", "oops"}, "", addr, as_chief);
  EXPECT_EQ(r.exit, 2) << r.out << r.err;  // no reason
  r = RunCli(cancel, "", addr, as_chief);
  ASSERT_EQ(r.exit, 0) << r.out << r.err;
  EXPECT_TRUE(absl::StrContains(r.out, "cancelled at revision 3")) << r.out;

  r = RunCli({"record", "-", "--game", "oops"},
             R"({"at": "2026-05-01T09:06:00Z", "resign": {"color": "WHITE"}})"
             "\n",
             addr, as_chief);
  EXPECT_EQ(r.exit, 2) << r.out << r.err;
  EXPECT_TRUE(absl::StrContains(r.err, "cancelled (created twice)")) << r.err;

  r = RunCli({"show", "oops", "--json"}, "", addr, as_chief);
  ASSERT_EQ(r.exit, 0) << r.err;
  EXPECT_TRUE(absl::StrContains(r.out, R"("cancelled":true)")) << r.out;
  r = RunCli({"history", "oops"}, "", addr, as_chief);
  ASSERT_EQ(r.exit, 0) << r.err;
  EXPECT_TRUE(absl::StrContains(r.out, "gameCancelled")) << r.out;
  r = RunCli({"verify", "oops"}, "", addr, as_chief);
  EXPECT_EQ(r.exit, 0) << r.out << r.err;
  EXPECT_TRUE(absl::StrContains(r.out, "same rulings")) << r.out;
}

}  // namespace
}  // namespace arbiter::testing
