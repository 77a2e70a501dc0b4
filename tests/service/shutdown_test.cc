// Graceful shutdown and restart: SIGTERM in the middle of concurrent appends
// loses no acknowledged event; one data directory serves one process; a live
// game in progress is timed again after a restart.
#include <atomic>
#include <mutex>
#include <set>
#include <thread>

#include "absl/strings/str_cat.h"
#include "tests/service/e2e_util.h"

namespace arbiter::testing {
namespace {

struct Ack {
  std::string game;
  uint64_t revision;
  uint64_t position;
  std::string key;
};

TEST(ShutdownTest, SigtermLosesNoAcknowledgedEvent) {
  const TempDir temp("arbiter-shutdown");
  const std::string& dir = temp.path();
  auto server = ServerProcess::Start(dir + "/data");
  ASSERT_NE(server, nullptr);
  const std::string address = server->address();

  std::mutex mu;
  std::vector<Ack> acked;
  std::atomic<bool> stop{false};
  std::vector<std::thread> writers;
  for (int w = 0; w < 4; ++w) {
    writers.emplace_back([&, w] {
      auto stub = StubFor(address);
      const std::string game = absl::StrCat("sd-", w);
      v1::AppendEventsResponse resp;
      if (!Append(*stub, game, {Created(game, T0()), Started(T0())}, &resp).ok()) return;
      for (int i = 0; !stop; ++i) {
        v1::Event e = At(T0() + absl::Seconds(1));
        e.mutable_returned_seat()->set_color(v1::BLACK);  // neutral, repeatable
        e.set_idempotency_key(absl::StrCat(game, "/", i));
        if (!Append(*stub, game, {e}, &resp).ok()) return;  // the server went away
        std::lock_guard<std::mutex> lock(mu);
        acked.push_back(
            {game, resp.events(0).revision(), resp.events(0).position(), e.idempotency_key()});
      }
    });
  }
  // Under load: every writer under way, and enough acknowledged to mean
  // something on a slow disk too.
  bool loaded = false;
  for (const absl::Time give_up = absl::Now() + absl::Seconds(60); !loaded && absl::Now() < give_up;
       absl::SleepFor(absl::Milliseconds(10))) {
    std::lock_guard<std::mutex> lock(mu);
    std::set<std::string> writing;
    for (const Ack& a : acked) writing.insert(a.game);
    loaded = acked.size() > 50 && writing.size() == writers.size();
  }
  EXPECT_TRUE(loaded) << "the load never came: " << acked.size() << " acknowledged";
  EXPECT_EQ(server->Stop(SIGTERM), 0) << server->log();
  stop = true;
  for (std::thread& t : writers) t.join();
  ASSERT_GT(acked.size(), 10u);

  // Every acknowledged event is there after a restart, where it was.
  server = ServerProcess::Start(dir + "/data");
  ASSERT_NE(server, nullptr);
  auto stub = StubFor(server->address());
  for (int w = 0; w < 4; ++w) {
    const std::string game = absl::StrCat("sd-", w);
    grpc::ClientContext ctx;
    v1::ListEventsRequest req;
    req.set_game("games/" + game);
    req.set_page_size(1000);
    v1::ListEventsResponse list;
    ASSERT_TRUE(stub->ListEvents(&ctx, req, &list).ok());
    for (const Ack& a : acked) {
      if (a.game != game) continue;
      ASSERT_LE(a.revision, static_cast<uint64_t>(list.events_size()));
      const v1::RecordedEvent& e = list.events(static_cast<int>(a.revision - 1));
      EXPECT_EQ(e.position(), a.position);
      EXPECT_EQ(e.event().idempotency_key(), a.key);
    }
  }
  server.reset();
}

TEST(ShutdownTest, OneProcessPerDataDirectory) {
  const TempDir temp("arbiter-lock");
  const std::string& dir = temp.path();
  auto first = ServerProcess::Start(dir + "/data");
  ASSERT_NE(first, nullptr);
  ProcessResult second = RunCli({"serve", "--db", dir + "/data", "--listen", "127.0.0.1:0"});
  EXPECT_EQ(second.exit, 3);
  EXPECT_FALSE(second.err.empty());
  first.reset();
}

TEST(ShutdownTest, LiveGameIsTimedAgainAfterARestart) {
  const TempDir temp("arbiter-restart");
  const std::string& dir = temp.path();
  auto server = ServerProcess::Start(dir + "/data");
  ASSERT_NE(server, nullptr);
  const absl::Time now = absl::Now();
  v1::Event created = Created("restart-live", now, /*live=*/true);
  ToProto(absl::Seconds(3),
          created.mutable_game_created()->mutable_time_control()->mutable_main_time());
  v1::AppendEventsResponse resp;
  ASSERT_TRUE(
      Append(*StubFor(server->address()), "restart-live", {created, Started(now)}, &resp).ok());
  ASSERT_EQ(server->Stop(SIGINT), 0);  // down before the flag falls
  server = ServerProcess::Start(dir + "/data");
  ASSERT_NE(server, nullptr);
  auto stub = StubFor(server->address());
  v1::Game game;
  const absl::Time give_up = absl::Now() + absl::Seconds(10);
  do {
    absl::SleepFor(absl::Milliseconds(200));
    ASSERT_TRUE(GetGame(*stub, "restart-live", &game).ok());
  } while (!game.has_result() && absl::Now() < give_up);
  ASSERT_TRUE(game.has_result());
  EXPECT_EQ(game.result().reason(), v1::Result::TIME);
  EXPECT_EQ(FromProto(game.result().at()), now + absl::Seconds(3));
  server.reset();
}

}  // namespace
}  // namespace arbiter::testing
