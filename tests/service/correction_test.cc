// Issue 13, point 3: corrections through the real binaries. On a server
// with tokens an ARBITER cannot void an event and a CHIEF_ARBITER can
// (`arbiter void`); the voided event stays, its ruling is superseded, the
// game goes on as if it had never been recorded, and `verify` still finds
// the ledger intact. Offline, `arbiter adjudicate` judges a file with an
// eventVoided the same way.
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "tests/support/arbiter_process.h"
#include "tests/support/files.h"
#include "tests/support/temp_dir.h"

namespace arbiter::testing {
namespace {

// Black's phone "rang" at event 4: it was White's.
constexpr char kGame[] =
    R"({"at": "2026-05-01T09:00:00Z", "gameCreated": {"gameId": "void-1", "ruleset": "cn-2002", "boardSize": 19, "venue": "SAME_SITE", "scheduledStart": "2026-05-01T09:00:00Z", "timeControl": {"mainTime": "3600s"}}}
{"at": "2026-05-01T09:00:00Z", "gameStarted": {}}
{"at": "2026-05-01T09:00:10Z", "move": {"color": "BLACK", "point": "Q16"}}
{"at": "2026-05-01T09:00:20Z", "phoneRang": {"color": "BLACK"}}
)";

std::string Token(const std::string& data_dir, const std::string& role, const std::string& name) {
  std::string secret = CreateToken(data_dir, role, name);
  EXPECT_FALSE(secret.empty()) << "arbiter token create failed";
  return secret;
}

TEST(CorrectionTest, OnlyTheChiefArbiterVoidsAndTheLedgerStaysIntact) {
  TempDir dir("arbiter-void");
  const std::string data = dir.File("data");
  const std::string chief = Token(data, "CHIEF_ARBITER", "chief");
  const std::string arbiter = Token(data, "ARBITER", "board1");
  auto server = ServerProcess::Start(data);
  ASSERT_NE(server, nullptr);
  const std::string addr = server->address();
  ProcessResult r = RunCli({"record", "-"}, kGame, addr, {{"ARBITER_TOKEN", chief}});
  ASSERT_EQ(r.exit, 0) << r.out << r.err;

  const std::vector<std::string> void_ring = {
      "void", "void-1", "4", "--reason", "it was White's phone", "--at", "2026-05-01T09:00:30Z"};
  r = RunCli(void_ring, "", addr, {{"ARBITER_TOKEN", arbiter}});
  EXPECT_EQ(r.exit, 4) << r.out << r.err;  // PERMISSION_DENIED
  EXPECT_EQ(r.out, "");

  r = RunCli({"void", "void-1", "1", "--reason", "no"}, "", addr, {{"ARBITER_TOKEN", chief}});
  EXPECT_EQ(r.exit, 2) << r.out << r.err;  // the gameCreated cannot be voided
  EXPECT_TRUE(absl::StrContains(r.err, "gameCreated")) << r.err;

  r = RunCli(void_ring, "", addr, {{"ARBITER_TOKEN", chief}});
  ASSERT_EQ(r.exit, 0) << r.out << r.err;
  EXPECT_TRUE(absl::StrContains(r.out, "event 4 voided: supersedes #1")) << r.out;
  EXPECT_TRUE(absl::StrContains(r.out, "note: it was White's phone")) << r.out;

  // The game goes on: White's ring is now the only one, Black has none.
  r = RunCli({"record", "-", "--game", "void-1"},
             R"({"at": "2026-05-01T09:00:40Z", "phoneRang": {"color": "WHITE"}})"
             "\n",
             addr, {{"ARBITER_TOKEN", chief}});
  ASSERT_EQ(r.exit, 0) << r.out << r.err;
  r = RunCli({"show", "void-1", "--json"}, "", addr, {{"ARBITER_TOKEN", chief}});
  ASSERT_EQ(r.exit, 0) << r.err;
  EXPECT_TRUE(absl::StrContains(r.out, R"("warnings":{"black":0,"white":1})")) << r.out;

  // The history keeps the voided event and both rulings.
  r = RunCli({"history", "void-1"}, "", addr, {{"ARBITER_TOKEN", chief}});
  ASSERT_EQ(r.exit, 0) << r.err;
  EXPECT_TRUE(absl::StrContains(r.out, "eventVoided")) << r.out;
  EXPECT_TRUE(absl::StrContains(r.out, "supersedes #1")) << r.out;

  r = RunCli({"verify", "void-1"}, "", addr, {{"ARBITER_TOKEN", chief}});
  EXPECT_EQ(r.exit, 0) << r.out << r.err;
  EXPECT_TRUE(absl::StrContains(r.out, "same rulings")) << r.out;
}

TEST(CorrectionTest, AdjudicateJudgesAFileWithAnEventVoided) {
  TempDir dir("arbiter-void-file");
  const std::string path = dir.File("game.jsonl");
  WriteFile(path, absl::StrCat(kGame, R"({"at": "2026-05-01T09:00:30Z", "eventVoided": )",
                               R"({"event": 4, "reason": "it was White's phone"}})", "\n",
                               R"({"at": "2026-05-01T09:00:40Z", "phoneRang": )",
                               R"({"color": "WHITE"}})", "\n"));
  ProcessResult r = RunArbiter({"adjudicate", "--json", path});
  ASSERT_EQ(r.exit, 0) << r.out << r.err;
  EXPECT_TRUE(absl::StrContains(r.out, R"("voided":4)")) << r.out;
  EXPECT_TRUE(absl::StrContains(r.out, R"("supersedes":1)")) << r.out;
  EXPECT_TRUE(absl::StrContains(r.out, R"("warnings":{"black":0,"white":1})")) << r.out;
  r = RunArbiter({"adjudicate", path});
  ASSERT_EQ(r.exit, 0) << r.out << r.err;
  EXPECT_TRUE(absl::StrContains(r.out, "event 4 voided: supersedes #1")) << r.out;
}

}  // namespace
}  // namespace arbiter::testing
