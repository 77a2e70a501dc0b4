// The service's read model keeps a bounded number of folds, and a game
// whose fold was dropped reads the same when it is refolded.
#include "adjudicator/service/game_folds.h"

#include <filesystem>
#include <string>

#include "absl/strings/str_cat.h"
#include "google/protobuf/util/json_util.h"
#include "gtest/gtest.h"
#include "adjudicator/service/adjudicator_judge.h"
#include "ledger/ledger.h"

namespace arbiter::service {
namespace {

v1::Event Parse(const std::string& json) {
  v1::Event e;
  EXPECT_TRUE(google::protobuf::util::JsonStringToMessage(json, &e).ok()) << json;
  return e;
}

v1::Event Created(const std::string& game) {
  return Parse(absl::StrCat(
      R"({"at": "2026-05-01T09:00:00Z", "gameCreated": {"gameId": ")", game,
      R"(", "ruleset": "cn-2002", "boardSize": 19, "venue": "SAME_SITE",)",
      R"( "scheduledStart": "2026-05-01T09:00:00Z", "timeControl": {"mainTime": "600s"}}})"));
}

class GameFoldsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl =
        (std::filesystem::temp_directory_path() / "game-folds-test-XXXXXX").string();
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
    ledger::LedgerOptions o;
    o.dir = dir_;
    o.judge = &judge_;
    auto l = ledger::Ledger::Open(o);
    ASSERT_TRUE(l.ok()) << l.status();
    ledger_ = *std::move(l);
  }
  void TearDown() override {
    ledger_.reset();
    std::filesystem::remove_all(dir_);
  }

  // A game with gameCreated, gameStarted and `moves` alternating moves.
  void Record(const std::string& game, int moves) {
    std::vector<v1::Event> events = {
        Created(game), Parse(R"({"at": "2026-05-01T09:00:00Z", "gameStarted": {}})")};
    const char* points[] = {"Q16", "D4", "Q4", "D16", "C3", "R17"};
    for (int i = 0; i < moves; ++i) {
      events.push_back(Parse(absl::StrCat(R"({"at": "2026-05-01T09:0)", i + 1,
                                          R"(:00Z", "move": {"color": ")",
                                          i % 2 ? "WHITE" : "BLACK", R"(", "point": ")",
                                          points[i], R"("}})")));
    }
    auto r = ledger_->Append(game, ledger::ExpectedRevision::NoStream(), std::move(events));
    ASSERT_TRUE(r.ok()) << r.status();
  }

  std::string dir_;
  ledger::AdjudicatorJudge judge_;
  std::unique_ptr<ledger::Ledger> ledger_;
};

TEST_F(GameFoldsTest, KeepsAtMostMaxGamesAndRefoldsADroppedOne) {
  constexpr int kGames = 10;
  for (int g = 0; g < kGames; ++g) Record(absl::StrCat("g", g), 1 + g % 6);
  GameFolds folds(ledger_.get(), /*max_games=*/4);
  for (int round = 0; round < 2; ++round) {
    for (int g = 0; g < kGames; ++g) {
      uint64_t revision = 0;
      uint32_t folded = 0;
      ASSERT_TRUE(folds
                      .With(absl::StrCat("g", g),
                            [&](const GameFold& f) {
                              revision = f.revision;
                              folded = f.adjudicator->events();
                            })
                      .ok());
      EXPECT_EQ(revision, static_cast<uint64_t>(2 + 1 + g % 6)) << "g" << g;
      EXPECT_EQ(folded, revision) << "g" << g << ": a refold must fold every event once";
      EXPECT_LE(folds.size(), 4u);
    }
  }
}

TEST_F(GameFoldsTest, ADroppedFoldSeesEventsCommittedSince) {
  Record("a", 1);
  Record("b", 1);
  GameFolds folds(ledger_.get(), /*max_games=*/1);
  uint64_t revision = 0;
  ASSERT_TRUE(folds.With("a", [&](const GameFold& f) { revision = f.revision; }).ok());
  EXPECT_EQ(revision, 3u);
  ASSERT_TRUE(folds.With("b", [&](const GameFold& f) { revision = f.revision; }).ok());
  EXPECT_EQ(folds.size(), 1u);  // a's fold was dropped for b's
  auto r = ledger_->Append(
      "a", ledger::ExpectedRevision::Exactly(3),
      {Parse(R"({"at": "2026-05-01T09:05:00Z", "move": {"color": "WHITE", "point": "D4"}})")});
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_TRUE(folds.With("a", [&](const GameFold& f) { revision = f.revision; }).ok());
  EXPECT_EQ(revision, 4u);
}

TEST_F(GameFoldsTest, AnUnknownGameKeepsNoFold) {
  GameFolds folds(ledger_.get(), /*max_games=*/4);
  EXPECT_EQ(folds.With("nope", [](const GameFold&) {}).code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(folds.size(), 0u);
}

}  // namespace
}  // namespace arbiter::service
