// The server's clock for live games (timekeeper.h): it follows the commit
// feed, appends the flag a live game's clock calls for at the instant the
// rules say, and sleeps while no deadline is pending: an idle ledger's
// clock never wakes.
#include "adjudicator/service/timekeeper.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "adjudicator/engine/proto_time.h"
#include "adjudicator/service/game_folds.h"
#include "adjudicator/service/recorder.h"
#include "gtest/gtest.h"
#include "ledger/ledger.h"
#include "ledger/reader_pool.h"
#include "ledger/store.h"
#include "tests/service/e2e_util.h"
#include "tests/support/temp_dir.h"
#include "tests/support/thread_switches.h"

namespace arbiter::testing {
namespace {

using service::GameFolds;
using service::Recorder;
using service::Timekeeper;

class TimekeeperTest : public ::testing::Test {
 protected:
  // The ledger judged by the read model, as in the server.
  void SetUp() override {
    auto store = ledger::OpenStore(dir_.path());
    ASSERT_TRUE(store.ok()) << store.status();
    auto readers = std::make_shared<ledger::ReaderPool>(*std::move(store));
    folds_ = std::make_unique<GameFolds>(readers);
    ledger::LedgerOptions o;
    o.dir = dir_.path();
    o.judge = folds_.get();
    o.readers = readers;
    auto l = ledger::Ledger::Open(o);
    ASSERT_TRUE(l.ok()) << l.status();
    ledger_ = *std::move(l);
    recorder_ = std::make_unique<Recorder>(ledger_.get(), folds_.get(), Recorder::Rules{});
    listener_ = ledger_->commit_feed()->AddListener([this](uint64_t head) {
      absl::MutexLock lock(&mu_);
      head_ = head;
    });
  }
  void TearDown() override {
    timekeeper_.reset();
    ledger_->commit_feed()->RemoveListener(listener_);
    recorder_.reset();
    ledger_.reset();
  }

  void Append(const std::string& game, std::vector<v1::Event> events) {
    auto r = ledger_->AppendAndWait(
        ledger::AppendRequest::Game(game, ledger::ExpectedRevision::NoStream(), std::move(events)));
    ASSERT_TRUE(r.ok()) << r.status();
  }

  // Waits (at most until `give_up`) for the commit that makes the head
  // `position`; the entry there, or none.
  std::optional<v1::LedgerEntry> AwaitPosition(uint64_t position, absl::Time give_up) {
    {
      absl::MutexLock lock(&mu_);
      auto reached = [this, position]()
                         ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) { return head_ >= position; };
      if (!mu_.AwaitWithDeadline(absl::Condition(&reached), give_up)) return std::nullopt;
    }
    auto entries = ledger_->log().ReadLog(position - 1, 1);
    if (!entries.ok() || entries->empty()) return std::nullopt;
    return entries->front();
  }

  // The switches the timekeeper's thread made.
  uint64_t TimekeeperSwitches() {
    uint64_t total = 0;
    SwitchesSince({}, ThreadSwitches(getpid(), "arb-timekeeper"), &total);
    return total;
  }

  TempDir dir_{"timekeeper-test"};
  std::unique_ptr<GameFolds> folds_;
  std::unique_ptr<ledger::Ledger> ledger_;
  std::unique_ptr<Recorder> recorder_;
  std::unique_ptr<Timekeeper> timekeeper_;
  int listener_ = -1;
  absl::Mutex mu_;
  uint64_t head_ ABSL_GUARDED_BY(mu_) = 0;
};

// A live game with 1 s of absolute time: the time is over when exceeded, so
// the server records Black's flag one second past it (12.4(5), cn-2002
// 2002.3), dated at that instant, and not before it.
v1::Event LiveGame(const std::string& id, absl::Time start) {
  v1::Event created = Created(id, start, /*live=*/true);
  ToProto(absl::Seconds(1),
          created.mutable_game_created()->mutable_time_control()->mutable_main_time());
  return created;
}

TEST_F(TimekeeperTest, FlagsALiveGameOnTime) {
  timekeeper_ = std::make_unique<Timekeeper>(ledger_.get(), folds_.get(), recorder_.get());
  timekeeper_->Start();
  const absl::Time start = absl::Now();
  Append("live-1", {LiveGame("live-1", start), Started(start)});
  std::optional<v1::LedgerEntry> flag = AwaitPosition(3, start + absl::Seconds(15));
  const absl::Time seen = absl::Now();
  ASSERT_TRUE(flag.has_value()) << "the server's clock appended nothing";
  EXPECT_GE(seen, start + absl::Seconds(2)) << "flagged before the time was exceeded";
  EXPECT_EQ(flag->game_id(), "live-1");
  v1::Event event;
  ASSERT_TRUE(event.ParseFromString(flag->event()));
  ASSERT_TRUE(event.has_time_expired());
  EXPECT_EQ(event.time_expired().color(), v1::BLACK);
  EXPECT_EQ(FromProto(event.at()), start + absl::Seconds(2));
  EXPECT_EQ(event.actor(), "server:clock");
}

// A game already live when the clock starts (a server restarted) is timed
// from the log, and a later live game from the feed.
TEST_F(TimekeeperTest, TimesTheLiveGamesAlreadyInTheLog) {
  const absl::Time start = absl::Now();
  Append("before", {LiveGame("before", start), Started(start)});
  timekeeper_ = std::make_unique<Timekeeper>(ledger_.get(), folds_.get(), recorder_.get());
  timekeeper_->Start();
  Append("after", {LiveGame("after", start), Started(start)});
  std::optional<v1::LedgerEntry> first = AwaitPosition(5, start + absl::Seconds(15));
  std::optional<v1::LedgerEntry> second = AwaitPosition(6, start + absl::Seconds(15));
  ASSERT_TRUE(first.has_value() && second.has_value()) << "a live game was not flagged";
  EXPECT_NE(first->game_id(), second->game_id());
  EXPECT_EQ(first->revision(), 3u);
  EXPECT_EQ(second->revision(), 3u);
}

// With no deadline pending (a game that is not live, and a live game whose
// flag has fallen) the clock sleeps until a commit: its thread makes no
// context switch in two idle seconds (a periodic wake of 200 ms made ten).
TEST_F(TimekeeperTest, MakesNoWakeupsWhileNoLiveGameHasADeadline) {
  timekeeper_ = std::make_unique<Timekeeper>(ledger_.get(), folds_.get(), recorder_.get());
  timekeeper_->Start();
  const absl::Time start = absl::Now();
  Append("slow", {Created("slow", T0()), Started(T0())});
  Append("live-1", {LiveGame("live-1", start), Started(start)});
  ASSERT_TRUE(AwaitPosition(5, start + absl::Seconds(15)).has_value());
  // The flag's commit wakes the clock once more, to find no deadline left;
  // a later commit proves it has read it (it reads in position order).
  Append("slow-2", {Created("slow-2", T0())});
  ASSERT_TRUE(AwaitPosition(6, start + absl::Seconds(15)).has_value());
  const uint64_t before = TimekeeperSwitches();
  ASSERT_GT(before, 0u) << "no thread named arb-timekeeper";
  absl::SleepFor(absl::Seconds(2));  // the idle window measured, not a wait
  const uint64_t made = TimekeeperSwitches() - before;
  EXPECT_LE(made, 2u) << "the idle clock woke " << made << " times in 2 s";
}

}  // namespace
}  // namespace arbiter::testing
