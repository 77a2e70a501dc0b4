// The ledger with the real Adjudicator as its judge, fed the shared
// scenarios: refused events leave nothing behind, every game re-adjudicates
// to its recorded rulings, and each finished game's bundle verifies alone.
#include <filesystem>
#include <string>
#include <vector>

#include "adjudicator/judge/adjudicator_judge.h"
#include "gtest/gtest.h"
#include "ledger/audit.h"
#include "ledger/bundle.h"
#include "ledger/ledger.h"
#include "ledger/sqlite/log_reader.h"
#include "ledger/store.h"
#include "tests/support/event_lines.h"
#include "tests/support/files.h"
#include "tests/support/paths.h"
#include "tests/support/temp_dir.h"

namespace arbiter::ledger {
namespace {

TEST(AdjudicatedLedgerTest, ScenariosRecordReadjudicateAndExport) {
  const std::vector<std::filesystem::path> scenarios =
      testing::FilesIn(testing::TestDataPath("scenarios/public"), ".jsonl");
  ASSERT_FALSE(scenarios.empty());
  testing::TempDir dir;
  AdjudicatorJudge judge;
  LedgerOptions o;
  o.dir = dir.path();
  o.judge = &judge;
  auto ledger = Ledger::Open(o);
  ASSERT_TRUE(ledger.ok()) << ledger.status();

  std::vector<std::string> games;
  for (const auto& path : scenarios) {
    std::string game = path.stem().string();
    absl::StatusOr<std::vector<v1::Event>> events = testing::ReadEventLines(path.string());
    ASSERT_TRUE(events.ok()) << events.status();
    uint64_t revision = 0;
    for (v1::Event& e : *events) {
      if (e.has_game_created()) e.mutable_game_created()->set_game_id(game);
      auto head = (*ledger)->log().Head();
      auto r = (*ledger)->AppendAndWait(
          AppendRequest::Game(game, ExpectedRevision::Exactly(revision), {e}));
      if (!r.ok()) {  // a scenario of bad input
        EXPECT_EQ(*(*ledger)->log().Head(), *head) << "a refused event left something behind";
        continue;
      }
      ++revision;
    }
    if (revision == 0) continue;
    games.push_back(game);
    // An event earlier than the one before it is bad input (DOMAIN.md §3):
    // the engine refuses it and the ledger records nothing.
    v1::Event early;
    early.mutable_at()->set_seconds(0);
    early.mutable_pass()->set_color(v1::BLACK);
    auto head = (*ledger)->log().Head();
    auto r = (*ledger)->AppendAndWait(
        AppendRequest::Game(game, ExpectedRevision::Exactly(revision), {early}));
    EXPECT_FALSE(r.ok()) << game;
    EXPECT_EQ(*(*ledger)->log().Head(), *head);
    EXPECT_EQ(*(*ledger)->log().GameRevision(game), revision);
  }
  EXPECT_GT(games.size(), 5u);

  auto reader = LogReader::Open(dir.File("ledger.db"));
  ASSERT_TRUE(reader.ok());
  AuditOptions audit;
  audit.judge = &judge;
  audit.public_key_der = (*ledger)->identity().public_key_der();
  auto report = (*OpenStore(dir.File("ledger.db")))->Audit(audit);
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_TRUE(report->intact) << report->first_bad_position << ": " << report->why;
  EXPECT_EQ(report->games_readjudicated, games.size());

  int exported = 0;
  for (const std::string& game : games) {
    auto bundle = ExportBundle(*reader, game);
    if (absl::IsFailedPrecondition(bundle.status())) continue;  // not ended, not yet covered
    ASSERT_TRUE(bundle.ok()) << bundle.status();
    ++exported;
    auto checked = AuditBundle(*bundle, audit);
    ASSERT_TRUE(checked.ok());
    EXPECT_TRUE(checked->intact) << game << ": " << checked->why;
    EXPECT_EQ(checked->games_readjudicated, 1u);
  }
  EXPECT_GT(exported, 0) << "some scenario games end, and so are checkpointed";
}

}  // namespace
}  // namespace arbiter::ledger
