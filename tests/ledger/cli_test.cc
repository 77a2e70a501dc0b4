// `arbiter verify` and `arbiter export` end to end, through the binary: a
// ledger of the shared scenarios judged by the real Adjudicator verifies
// (exit 0), a game's bundle exports and verifies alone, and a flipped byte
// makes verify exit 1 naming the position.
#include <string>
#include <vector>

#include "adjudicator/judge/adjudicator_judge.h"
#include "gtest/gtest.h"
#include "ledger/ledger.h"
#include "ledger/sqlite.h"
#include "tests/support/arbiter_process.h"
#include "tests/support/event_lines.h"
#include "tests/support/paths.h"
#include "tests/support/temp_dir.h"

namespace arbiter::ledger {
namespace {

using testing::ProcessResult;

// `arbiter ARGS...`, its stderr with its stdout.
ProcessResult Arbiter(const std::vector<std::string>& args) {
  return testing::RunArbiter(args, {.merge_stderr = true});
}

TEST(CliTest, VerifyAndExport) {
  testing::TempDir dir;
  {
    AdjudicatorJudge judge;
    LedgerOptions o;
    o.dir = dir.path();
    o.judge = &judge;
    auto ledger = Ledger::Open(o);
    ASSERT_TRUE(ledger.ok()) << ledger.status();
    absl::StatusOr<std::vector<v1::Event>> events =
        testing::ReadEventLines(testing::TestDataPath("scenarios/public/phone-twice.jsonl"));
    ASSERT_TRUE(events.ok()) << events.status();
    uint64_t revision = 0;
    for (const v1::Event& e : *events) {
      auto r = (*ledger)->AppendAndWait(
          AppendRequest::Game("phone-twice", ExpectedRevision::Exactly(revision), {e}));
      ASSERT_TRUE(r.ok()) << r.status();
      ++revision;
    }
    ASSERT_GT(revision, 0u);
  }
  const std::string db = dir.File("ledger.db");
  ProcessResult ok = Arbiter({"verify", "--db", db});
  EXPECT_EQ(ok.exit, 0) << ok.out;
  EXPECT_NE(ok.out.find("every ruling matches"), std::string::npos) << ok.out;
  EXPECT_NE(ok.out.find("trusted, from"), std::string::npos) << ok.out;
  // The data directory of `arbiter serve --db` names the same database.
  ProcessResult by_dir = Arbiter({"verify", "--db", dir.path()});
  EXPECT_EQ(by_dir.exit, 0) << by_dir.out;
  EXPECT_NE(by_dir.out.find("trusted, from"), std::string::npos) << by_dir.out;
  ProcessResult one = Arbiter({"verify", "--db", db, "phone-twice"});
  EXPECT_EQ(one.exit, 0) << one.out;
  EXPECT_EQ(Arbiter({"verify", "--db", db, "no-such-game"}).exit, 2);
  EXPECT_EQ(Arbiter({"verify", "--db", dir.File("missing.db")}).exit, 2);
  EXPECT_EQ(Arbiter({"verify"}).exit, 2);

  const std::string bundle = dir.File("phone-twice.bundle");
  ProcessResult exported = Arbiter({"export", "phone-twice", "--db", db, "--bundle", bundle});
  EXPECT_EQ(exported.exit, 0) << exported.out;
  EXPECT_EQ(Arbiter({"export", "phone-twice", "--db", dir.path(), "--bundle", bundle}).exit, 0);
  ProcessResult checked =
      Arbiter({"verify", "--bundle", bundle, "--pubkey", dir.File("ledger.pub")});
  EXPECT_EQ(checked.exit, 0) << checked.out;
  EXPECT_EQ(Arbiter({"export", "nope", "--db", db, "--bundle", bundle}).exit, 2);

  // Tampering, triggers dropped first.
  {
    absl::StatusOr<Db> sqlite = Db::Open(db, SQLITE_OPEN_READWRITE);
    ASSERT_TRUE(sqlite.ok()) << sqlite.status();
    ASSERT_TRUE(
        sqlite
            ->Exec("DROP TRIGGER events_no_UPDATE;"
                   "UPDATE events SET event = CAST(event AS BLOB) || x'00' WHERE position = 4")
            .ok());
  }
  ProcessResult bad = Arbiter({"verify", "--db", db});
  EXPECT_EQ(bad.exit, 1) << bad.out;
  EXPECT_NE(bad.out.find("first bad position 4"), std::string::npos) << bad.out;
  // The bundle made before the tampering still verifies on its own.
  EXPECT_EQ(Arbiter({"verify", "--bundle", bundle}).exit, 0);
}

}  // namespace
}  // namespace arbiter::ledger
