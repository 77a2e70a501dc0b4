// `arbiter verify` and `arbiter export` end to end, through the binary: a
// ledger of the shared scenarios judged by the real Adjudicator verifies
// (exit 0), a game's bundle exports and verifies alone, and a flipped byte
// makes verify exit 1 naming the position.
#include <sqlite3.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "absl/strings/str_cat.h"
#include "google/protobuf/util/json_util.h"
#include "gtest/gtest.h"
#include "adjudicator/service/adjudicator_judge.h"
#include "ledger/ledger.h"
#include "tests/ledger/test_dir.h"

namespace arbiter::ledger {
namespace {

struct CommandRun {
  int exit_code;
  std::string out;
};

CommandRun Arbiter(const std::string& args) {
  std::string cmd = absl::StrCat(ARBITER_BINARY, " ", args, " 2>&1");
  FILE* p = popen(cmd.c_str(), "r");
  std::string out;
  char buf[512];
  while (p != nullptr && fgets(buf, sizeof buf, p) != nullptr) out += buf;
  int status = p == nullptr ? -1 : pclose(p);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

TEST(CliTest, VerifyAndExport) {
  testing::TestDir dir;
  {
    service::AdjudicatorJudge judge;
    LedgerOptions o;
    o.dir = dir.path();
    o.judge = &judge;
    auto ledger = Ledger::Open(o);
    ASSERT_TRUE(ledger.ok()) << ledger.status();
    std::ifstream in(std::string(ARBITER_SOURCE_DIR) + "/tests/data/scenarios/public/phone-twice.jsonl");
    std::string line;
    uint64_t revision = 0;
    while (std::getline(in, line)) {
      v1::Event e;
      ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(line, &e).ok());
      auto r = (*ledger)->Append("phone-twice", ExpectedRevision::Exactly(revision), {e});
      ASSERT_TRUE(r.ok()) << r.status();
      ++revision;
    }
    ASSERT_GT(revision, 0u);
  }
  CommandRun ok = Arbiter(absl::StrCat("verify --db ", dir.db()));
  EXPECT_EQ(ok.exit_code, 0) << ok.out;
  EXPECT_NE(ok.out.find("every ruling matches"), std::string::npos) << ok.out;
  EXPECT_NE(ok.out.find("trusted, from"), std::string::npos) << ok.out;
  // The data directory of `arbiter serve --db` names the same database.
  CommandRun by_dir = Arbiter(absl::StrCat("verify --db ", dir.path()));
  EXPECT_EQ(by_dir.exit_code, 0) << by_dir.out;
  EXPECT_NE(by_dir.out.find("trusted, from"), std::string::npos) << by_dir.out;
  CommandRun one = Arbiter(absl::StrCat("verify --db ", dir.db(), " phone-twice"));
  EXPECT_EQ(one.exit_code, 0) << one.out;
  EXPECT_EQ(Arbiter(absl::StrCat("verify --db ", dir.db(), " no-such-game")).exit_code, 2);
  EXPECT_EQ(Arbiter(absl::StrCat("verify --db ", dir.path(), "/missing.db")).exit_code, 2);
  EXPECT_EQ(Arbiter("verify").exit_code, 2);

  std::string bundle = dir.path() + "/phone-twice.bundle";
  CommandRun exported = Arbiter(absl::StrCat("export phone-twice --db ", dir.db(), " --bundle ", bundle));
  EXPECT_EQ(exported.exit_code, 0) << exported.out;
  EXPECT_EQ(Arbiter(absl::StrCat("export phone-twice --db ", dir.path(), " --bundle ", bundle))
                .exit_code,
            0);
  CommandRun checked = Arbiter(absl::StrCat("verify --bundle ", bundle, " --pubkey ", dir.path(), "/ledger.pub"));
  EXPECT_EQ(checked.exit_code, 0) << checked.out;
  EXPECT_EQ(Arbiter(absl::StrCat("export nope --db ", dir.db(), " --bundle ", bundle)).exit_code, 2);

  // Tampering, triggers dropped first.
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(dir.db().c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db,
                         "DROP TRIGGER events_no_UPDATE;"
                         "UPDATE events SET event = CAST(event AS BLOB) || x'00' WHERE position = 4",
                         nullptr, nullptr, nullptr),
            SQLITE_OK);
  sqlite3_close(db);
  CommandRun bad = Arbiter(absl::StrCat("verify --db ", dir.db()));
  EXPECT_EQ(bad.exit_code, 1) << bad.out;
  EXPECT_NE(bad.out.find("first bad position 4"), std::string::npos) << bad.out;
  // The bundle made before the tampering still verifies on its own.
  EXPECT_EQ(Arbiter(absl::StrCat("verify --bundle ", bundle)).exit_code, 0);
}

}  // namespace
}  // namespace arbiter::ledger
