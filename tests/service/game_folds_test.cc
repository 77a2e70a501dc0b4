// The service's read model: the ledger's judge hands it each committed fold;
// it keeps a bounded number of them, a game whose fold was dropped reads the
// same when it is refolded, and a fold a reader holds never changes.
#include "adjudicator/service/game_folds.h"

#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "google/protobuf/util/json_util.h"
#include "gtest/gtest.h"
#include "ledger/ledger.h"
#include "ledger/reader_pool.h"
#include "ledger/store.h"
#include "tests/support/temp_dir.h"

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
  // The read model judges the ledger, as in the server.
  void Open(size_t max_games) {
    auto store = ledger::OpenStore(dir_.path());
    ASSERT_TRUE(store.ok()) << store.status();
    auto readers = std::make_shared<ledger::ReaderPool>(*std::move(store));
    folds_ = std::make_unique<GameFolds>(readers, max_games);
    ledger::LedgerOptions o;
    o.dir = dir_.path();
    o.judge = folds_.get();
    o.readers = readers;
    auto l = ledger::Ledger::Open(o);
    ASSERT_TRUE(l.ok()) << l.status();
    ledger_ = *std::move(l);
  }

  void SetUp() override {}
  void TearDown() override { ledger_.reset(); }

  // A game with gameCreated, gameStarted and `moves` alternating moves.
  void Record(const std::string& game, int moves) {
    std::vector<v1::Event> events = {Created(game),
                                     Parse(R"({"at": "2026-05-01T09:00:00Z", "gameStarted": {}})")};
    const char* points[] = {"Q16", "D4", "Q4", "D16", "C3", "R17"};
    for (int i = 0; i < moves; ++i) {
      events.push_back(
          Parse(absl::StrCat(R"({"at": "2026-05-01T09:0)", i + 1, R"(:00Z", "move": {"color": ")",
                             i % 2 ? "WHITE" : "BLACK", R"(", "point": ")", points[i], R"("}})")));
    }
    auto r = ledger_->AppendAndWait(
        ledger::AppendRequest::Game(game, ledger::ExpectedRevision::NoStream(), std::move(events)));
    ASSERT_TRUE(r.ok()) << r.status();
  }

  testing::TempDir dir_{"game-folds-test"};
  std::unique_ptr<GameFolds> folds_;
  std::unique_ptr<ledger::Ledger> ledger_;
};

TEST_F(GameFoldsTest, KeepsAtMostMaxGamesAndRefoldsADroppedOne) {
  Open(/*max_games=*/4);
  constexpr int kGames = 10;
  for (int g = 0; g < kGames; ++g) Record(absl::StrCat("g", g), 1 + g % 6);
  EXPECT_LE(folds_->size(), 4u) << "commits are kept under the same bound";
  for (int round = 0; round < 2; ++round) {
    for (int g = 0; g < kGames; ++g) {
      auto view = folds_->Get(absl::StrCat("g", g));
      ASSERT_TRUE(view.ok()) << view.status();
      EXPECT_EQ(view->revision, static_cast<uint64_t>(2 + 1 + g % 6)) << "g" << g;
      EXPECT_EQ(view->game().events(), view->revision)
          << "g" << g << ": a refold must fold every event once";
      EXPECT_LE(folds_->size(), 4u);
    }
  }
}

TEST_F(GameFoldsTest, ADroppedFoldSeesEventsCommittedSince) {
  Open(/*max_games=*/1);
  Record("a", 1);
  Record("b", 1);
  EXPECT_EQ(folds_->size(), 1u);  // a's fold was dropped for b's
  auto a = folds_->Get("a");
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(a->revision, 3u);
  ASSERT_TRUE(folds_->Get("b").ok());
  EXPECT_EQ(folds_->size(), 1u);
  auto r = ledger_->AppendAndWait(ledger::AppendRequest::Game(
      "a", ledger::ExpectedRevision::Exactly(3),
      {Parse(R"({"at": "2026-05-01T09:05:00Z", "move": {"color": "WHITE", "point": "D4"}})")}));
  ASSERT_TRUE(r.ok()) << r.status();
  a = folds_->Get("a");
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(a->revision, 4u);
}

// A read answers with the fold the commit handed over; a game no longer
// kept is folded again.
TEST_F(GameFoldsTest, GetAnswersWithTheKeptFoldOrFoldsAgain) {
  Open(/*max_games=*/1);
  Record("a", 2);
  auto a = folds_->Get("a");
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(a->revision, 4u);
  EXPECT_EQ(a->game().events(), 4u);
  Record("b", 1);  // a's fold is dropped for b's
  a = folds_->Get("a");
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(a->revision, 4u) << "folded again from the ledger";
  EXPECT_EQ(folds_->Get("nope").status().code(), absl::StatusCode::kNotFound);
}

TEST_F(GameFoldsTest, AnUnknownGameKeepsNoFold) {
  Open(/*max_games=*/4);
  EXPECT_EQ(folds_->Get("nope").status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(folds_->size(), 0u);
}

// The ledger judges each append on a copy: a reader's fold never changes
// under it, and a refused append (or one whose commit fails) never reaches
// the read model.
TEST_F(GameFoldsTest, ReadersSeeOnlyCommittedFoldsThatNeverChange) {
  Open(/*max_games=*/4);
  Record("a", 1);  // Black Q16
  auto before = folds_->Get("a");
  ASSERT_TRUE(before.ok()) << before.status();
  ASSERT_EQ(before->revision, 3u);
  // A batch whose second event is refused (D4 twice): nothing is recorded.
  auto refused = ledger_->AppendAndWait(ledger::AppendRequest::Game(
      "a", ledger::ExpectedRevision::Exactly(3),
      {Parse(R"({"at": "2026-05-01T09:05:00Z", "move": {"color": "WHITE", "point": "D4"}})"),
       Parse(R"({"at": "2026-05-01T09:06:00Z", "move": {"color": "BLACK", "point": "D4"}})")}));
  ASSERT_FALSE(refused.ok());
  auto after_refusal = folds_->Get("a");
  ASSERT_TRUE(after_refusal.ok());
  EXPECT_EQ(after_refusal->revision, 3u);
  EXPECT_EQ(after_refusal->game().events(), 3u) << "the refused batch leaked into the read model";
  EXPECT_EQ(after_refusal->game().State().board(15)[3], '.') << "D4 must still be empty";

  auto accepted = ledger_->AppendAndWait(ledger::AppendRequest::Game(
      "a", ledger::ExpectedRevision::Exactly(3),
      {Parse(R"({"at": "2026-05-01T09:05:00Z", "move": {"color": "WHITE", "point": "D4"}})")}));
  ASSERT_TRUE(accepted.ok()) << accepted.status();
  auto after = folds_->Get("a");
  ASSERT_TRUE(after.ok());
  EXPECT_EQ(after->revision, 4u);
  EXPECT_EQ(after->game().State().board(15)[3], 'O');
  // The fold read before is the same object it was: still revision 3.
  EXPECT_EQ(before->revision, 3u);
  EXPECT_EQ(before->game().events(), 3u);
  EXPECT_EQ(before->game().State().board(15)[3], '.');
}

// Nothing is wired after construction: the read model reads the ledger
// through the readers it was made with, and a game it has dropped or never
// held reads as the ledger holds it.
TEST_F(GameFoldsTest, ReadsWhatItDoesNotHoldFromTheLedger) {
  Open(/*max_games=*/1);
  Record("a", 1);
  Record("b", 2);
  auto a = folds_->Get("a");
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(a->revision, 3u);
  EXPECT_EQ(folds_->size(), 1u);
}

}  // namespace
}  // namespace arbiter::service
