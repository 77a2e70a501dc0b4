// The deliverer's retries (issue 46.2; webhooks.h), in process with a
// short schedule: a receiver's Retry-After is honoured, a delivery not
// taken after the last retry fails for good (kept, marked, the next sent),
// and RetryWebhook sends it again with the same id and bytes; each wait of
// the schedule is stretched by up to a tenth at random (the jitter).
#include <algorithm>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "adjudicator/service/game_folds.h"
#include "adjudicator/service/webhooks.h"
#include "gtest/gtest.h"
#include "httplib.h"
#include "ledger/ledger.h"
#include "ledger/reader_pool.h"
#include "ledger/server_tables.h"
#include "ledger/signer.h"
#include "ledger/store.h"
#include "tests/support/event_lines.h"
#include "tests/support/files.h"
#include "tests/support/temp_dir.h"

namespace arbiter::testing {
namespace {

struct Attempt {
  std::string id;
  std::string body;
  absl::Time at;
};

class WebhookRetryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto store = ledger::OpenStore(dir_.path());
    ASSERT_TRUE(store.ok()) << store.status();
    auto readers = std::make_shared<ledger::ReaderPool>(*std::move(store));
    folds_ = std::make_unique<service::GameFolds>(readers);
    ledger::LedgerOptions o;
    o.dir = dir_.path();
    o.judge = folds_.get();
    o.readers = readers;
    auto l = ledger::Ledger::Open(o);
    ASSERT_TRUE(l.ok()) << l.status();
    ledger_ = *std::move(l);
    server_.Post("/hook", [this](const httplib::Request& req, httplib::Response& res) {
      absl::MutexLock lock(&mu_);
      attempts_.push_back({req.get_header_value("webhook-id"), req.body, absl::Now()});
      res.status = answers_.empty() ? 200 : answers_.front();
      if (attempts_.size() == 1) res.set_header("Retry-After", "1");
      if (!answers_.empty()) answers_.erase(answers_.begin());
    });
    port_ = server_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server_.listen_after_bind(); });
  }
  void TearDown() override {
    deliverer_.reset();
    ledger_.reset();
    server_.stop();
    thread_.join();
  }
  std::unique_ptr<ledger::ServerTables> Tables() {
    auto store = ledger::OpenStore(dir_.path());
    EXPECT_TRUE(store.ok());
    auto tables = (*store)->OpenServerTables(false);
    EXPECT_TRUE(tables.ok());
    return *std::move(tables);
  }
  void StartDeliverer() {
    auto store = ledger::OpenStore(dir_.path());
    ASSERT_TRUE(store.ok());
    auto log = (*store)->OpenReader();
    ASSERT_TRUE(log.ok());
    auto key = ledger::Signer::FromEd25519Seed(std::string(32, '\x05'));
    ASSERT_TRUE(key.ok());
    service::WebhookDeliverer::Options o;
    o.sender.allow_private = true;
    o.retries = {absl::Milliseconds(50), absl::Milliseconds(50)};
    o.owner = "test";
    deliverer_ = std::make_unique<service::WebhookDeliverer>(
        ledger_.get(), folds_.get(), Tables(), *std::move(log), nullptr, *std::move(key), o);
    deliverer_->Start();
  }
  bool AwaitAttempts(size_t n) {
    absl::MutexLock lock(&mu_);
    auto met = [&]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) { return attempts_.size() >= n; };
    return mu_.AwaitWithTimeout(absl::Condition(&met), absl::Seconds(30));
  }
  // Waits for the store's deliveries of `endpoint` to be as `done` says.
  bool AwaitDeliveries(ledger::ServerTables& tables, const std::string& endpoint,
                       std::function<bool(const std::vector<ledger::DeliveryRow>&)> done) {
    for (const absl::Time give_up = absl::Now() + absl::Seconds(30); absl::Now() < give_up;) {
      auto rows = tables.Deliveries(endpoint);
      if (rows.ok() && done(*rows)) return true;
      absl::SleepFor(absl::Milliseconds(20));
    }
    return false;
  }

  const TempDir dir_{"arbiter-webhook-retry"};
  std::unique_ptr<service::GameFolds> folds_;
  std::unique_ptr<ledger::Ledger> ledger_;
  std::unique_ptr<service::WebhookDeliverer> deliverer_;
  httplib::Server server_;
  int port_ = 0;
  std::thread thread_;
  absl::Mutex mu_;
  std::vector<Attempt> attempts_ ABSL_GUARDED_BY(mu_);
  std::vector<int> answers_ ABSL_GUARDED_BY(mu_) = {503, 500, 500};
};

TEST_F(WebhookRetryTest, RetriesHonourRetryAfterThenFailForGoodAndRetrySendsItAgain) {
  std::unique_ptr<ledger::ServerTables> tables = Tables();
  ASSERT_TRUE(tables
                  ->AddWebhook({.id = "wh_1",
                                .url = absl::StrCat("http://127.0.0.1:", port_, "/hook"),
                                .kinds = "ruling.issued"})
                  .ok());
  StartDeliverer();
  const std::string path = dir_.File("g1.jsonl");
  WriteFile(path, ClockFailureGame("g1"));
  auto events = ReadEventLines(path);
  ASSERT_TRUE(events.ok());
  ASSERT_TRUE(ledger_
                  ->AppendAndWait(ledger::AppendRequest::Game(
                      "g1", ledger::ExpectedRevision::NoStream(), *events))
                  .ok());
  ASSERT_TRUE(ledger_->Checkpoint().ok());
  // The first attempt, then one per retry of the schedule (two): then none.
  ASSERT_TRUE(AwaitAttempts(3));
  ASSERT_TRUE(AwaitDeliveries(*tables, "wh_1", [](const auto& rows) {
    return rows.size() == 1 && rows[0].failed && rows[0].attempts == 3;
  }));
  std::vector<Attempt> seen;
  {
    absl::MutexLock lock(&mu_);
    seen = attempts_;
  }
  ASSERT_EQ(seen.size(), 3u);  // none after the last retry failed
  EXPECT_GE(seen[1].at - seen[0].at, absl::Seconds(1)) << "Retry-After: 1 was not honoured";
  EXPECT_LT(seen[2].at - seen[1].at, absl::Seconds(1));  // the schedule's 50 ms (+ jitter)
  auto retried = tables->RetryWebhook("wh_1", absl::ToUnixMillis(absl::Now()));
  ASSERT_TRUE(retried.ok());
  EXPECT_EQ(*retried, 1);
  deliverer_->Wake();
  ASSERT_TRUE(AwaitAttempts(4));
  ASSERT_TRUE(AwaitDeliveries(*tables, "wh_1", [](const auto& rows) { return rows.empty(); }));
  absl::MutexLock lock(&mu_);
  for (const Attempt& a : attempts_) {
    EXPECT_EQ(a.id, attempts_[0].id);
    EXPECT_EQ(a.body, attempts_[0].body);
  }
}

// Standard Webhooks asks for retries with jitter, so that the deliveries one
// outage failed do not all come back at the same instant. Drawn from a
// seeded source: every wait lies in [scheduled, 1.1 x scheduled), and over
// many draws they spread across that whole range rather than sit at one
// point.
TEST(WebhookRetryWaitTest, EachWaitIsStretchedByUpToATenthAtRandom) {
  std::mt19937_64 random(46);
  constexpr int kDraws = 10000;
  for (const absl::Duration scheduled : service::StandardRetrySchedule()) {
    absl::Duration least = absl::InfiniteDuration();
    absl::Duration most = absl::ZeroDuration();
    absl::Duration sum = absl::ZeroDuration();
    for (int k = 0; k < kDraws; ++k) {
      const absl::Duration wait = service::RetryWait(scheduled, std::nullopt, random);
      ASSERT_GE(wait, scheduled);
      ASSERT_LT(wait, scheduled * 1.1);
      least = std::min(least, wait);
      most = std::max(most, wait);
      sum += wait;
    }
    EXPECT_LT(least, scheduled * 1.005) << scheduled;
    EXPECT_GT(most, scheduled * 1.095) << scheduled;
    const double mean = absl::FDivDuration(sum / kDraws, scheduled);
    EXPECT_NEAR(mean, 1.05, 0.005) << scheduled;
  }
}

// A receiver's Retry-After replaces the wait when longer (up to a day);
// a shorter one leaves the jittered wait.
TEST(WebhookRetryWaitTest, ALongerRetryAfterIsHonouredUpToADay) {
  std::mt19937_64 random(46);
  EXPECT_EQ(service::RetryWait(absl::Seconds(5), absl::Minutes(2), random), absl::Minutes(2));
  const absl::Duration shorter = service::RetryWait(absl::Minutes(30), absl::Seconds(1), random);
  EXPECT_GE(shorter, absl::Minutes(30));
  EXPECT_LT(shorter, absl::Minutes(33));
  EXPECT_EQ(service::RetryWait(absl::Seconds(5), absl::Hours(100), random), absl::Hours(24));
}

}  // namespace
}  // namespace arbiter::testing
