// Issue 32.1: the watch hub's threads wake the streams only when something
// happens (a commit, the server's shutdown, the stall deadline of a write
// in flight), never on a timer. Through a real `arbiter serve` child
// process; its hub threads are the ones named "arb-watch-hub".
#include <dirent.h>

#include <atomic>
#include <fstream>
#include <string>
#include <thread>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "tests/service/e2e_util.h"
#include "tests/support/arbiter_process.h"
#include "tests/support/temp_dir.h"
#include "tests/support/watchers.h"

namespace arbiter::testing {
namespace {

// The hub's threads of process `pid` and how many times they have been
// switched out (voluntary and involuntary context switches, all of them):
// a thread that sleeps until it is woken adds one per wake.
struct HubThreads {
  int threads = 0;
  int64_t switches = 0;
};

HubThreads HubThreadsOf(pid_t pid) {
  HubThreads out;
  const std::string tasks = absl::StrCat("/proc/", pid, "/task");
  DIR* dir = opendir(tasks.c_str());
  if (dir == nullptr) return out;
  while (dirent* d = readdir(dir)) {
    const std::string task = absl::StrCat(tasks, "/", d->d_name);
    std::ifstream comm(task + "/comm");
    std::string name;
    if (!std::getline(comm, name) || name != "arb-watch-hub") continue;
    ++out.threads;
    std::ifstream status(task + "/status");
    std::string line;
    while (std::getline(status, line)) {
      if (!absl::StrContains(line, "ctxt_switches:")) continue;
      int64_t n = 0;
      if (absl::SimpleAtoi(line.substr(line.find(':') + 1), &n)) {
        out.switches += n;
      }
    }
  }
  closedir(dir);
  return out;
}

v1::Event StoneAt(int i) {
  static constexpr char kColumns[] = "ABCDEFGHJKLMNOPQRST";
  return MoveAt(T0() + absl::Seconds(10 + i), i % 2 ? v1::WHITE : v1::BLACK,
                absl::StrCat(std::string(1, kColumns[(i % 10) * 2]), (i / 10) * 2 + 1));
}

void AppendAll(v1::Arbiter::Stub& stub, const std::string& game,
               const std::vector<v1::Event>& events) {
  v1::AppendEventsResponse resp;
  const grpc::Status s = Append(stub, game, events, &resp);
  ASSERT_TRUE(s.ok()) << s.error_code() << ": " << s.error_message();
}

// `streams` watchers of game "g" (WatchGame and WatchAll in turn) from its
// start, on `pool`; waits until all have caught up.
void OpenCaughtUp(WatcherPool& pool, const std::atomic<int>& caught_up, int streams) {
  for (int i = 0; i < streams; ++i) pool.Open(i % 2 ? "g" : "", 0);
  const absl::Time deadline = absl::Now() + absl::Seconds(30);
  while (caught_up < streams && pool.ended() == 0 && absl::Now() < deadline) {
    absl::SleepFor(absl::Milliseconds(20));
  }
  ASSERT_EQ(caught_up.load(), streams) << pool.ended() << " ended";
}

// Open, caught-up streams with nothing to send leave the hub's threads
// asleep: not one wake in two seconds. A commit wakes them, and reaches
// every stream. Before, the hub woke every stream every 200 ms.
TEST(WatchHubTest, IdleWatchersLeaveTheHubAsleep) {
  TempDir dir("arbiter-watch-hub-idle");
  auto server = ServerProcess::Start(dir.File("data"));
  ASSERT_NE(server, nullptr);
  auto stub = StubFor(server->address());
  AppendAll(*stub, "g", {Created("g", T0()), Started(T0())});
  if (HasFatalFailure()) return;

  constexpr int kStreams = 200;
  std::atomic<int> caught_up{0};
  std::atomic<int> stones{0};
  WatcherPool pool(server->address(), 4, "", [&](int, const v1::WatchResponse& m) {
    if (m.has_caught_up()) ++caught_up;
    if (m.has_event() && m.event().event().has_move()) ++stones;
  });
  OpenCaughtUp(pool, caught_up, kStreams);
  if (HasFatalFailure()) return;

  // The caught_up messages' writes done, the hub goes to sleep: wait until
  // its threads are seen to stay switched out over 100 ms (the wake every
  // 200 ms this guards against can pass that, not the two seconds below).
  HubThreads asleep = HubThreadsOf(server->pid());
  ASSERT_GE(asleep.threads, 1) << "no thread named arb-watch-hub";
  for (const absl::Time give_up = absl::Now() + absl::Seconds(10); absl::Now() < give_up;) {
    absl::SleepFor(absl::Milliseconds(100));
    const HubThreads now = HubThreadsOf(server->pid());
    if (now.switches == asleep.switches) break;
    asleep = now;
  }
  // Time the test measures, not a wait for an event: two seconds idle.
  absl::SleepFor(absl::Seconds(2));
  const HubThreads idle = HubThreadsOf(server->pid());
  EXPECT_EQ(idle.switches - asleep.switches, 0)
      << "the hub's threads woke " << idle.switches - asleep.switches
      << " times in 2 s with every stream idle";

  AppendAll(*stub, "g", {StoneAt(0)});
  const absl::Time deadline = absl::Now() + absl::Seconds(20);
  while (stones < kStreams && absl::Now() < deadline) absl::SleepFor(absl::Milliseconds(20));
  EXPECT_EQ(stones.load(), kStreams) << "not every stream got the new event";
  EXPECT_GT(HubThreadsOf(server->pid()).switches, idle.switches) << "the commit woke no hub thread";
  EXPECT_EQ(pool.ended(), 0);
}

// A server no one watches: commits wake none of the hub's threads (a
// thread's wake-up costs about as much as the append on a small machine).
TEST(WatchHubTest, CommitsWakeNoHubThreadWhileNoOneWatches) {
  TempDir dir("arbiter-watch-hub-unwatched");
  auto server = ServerProcess::Start(dir.File("data"));
  ASSERT_NE(server, nullptr);
  auto stub = StubFor(server->address());
  AppendAll(*stub, "g", {Created("g", T0()), Started(T0())});
  if (HasFatalFailure()) return;
  const HubThreads before = HubThreadsOf(server->pid());
  ASSERT_GE(before.threads, 1) << "no thread named arb-watch-hub";
  for (int i = 0; i < 20; ++i) {
    AppendAll(*stub, "g", {StoneAt(i)});
    if (HasFatalFailure()) return;
  }
  EXPECT_EQ(HubThreadsOf(server->pid()).switches - before.switches, 0)
      << "20 commits with no stream woke the hub's threads";
}

// A client that reads nothing while its stream has a message to write is
// cancelled at its stall timeout (--watch-stall 1s) with nothing else
// happening on the server: no commit, no other stream. Only the stall
// deadline of the write in flight wakes the hub. (Were it not, the stream
// would go on once the client reads, and the call end at its 20 s deadline.)
TEST(WatchHubTest, AStalledClientIsCancelledAtItsStallTimeout) {
  TempDir dir("arbiter-watch-hub-stall");
  auto server = ServerProcess::Start(dir.File("data"), {"--watch-stall", "1s"});
  ASSERT_NE(server, nullptr);
  auto stub = StubFor(server->address());
  // 60 games of 20 events: a log of 1,200 far larger than the client's
  // flow-control window below.
  constexpr int kGames = 60;
  for (int g = 0; g < kGames; ++g) {
    const std::string id = absl::StrCat("s", g);
    std::vector<v1::Event> events = {Created(id, T0()), Started(T0())};
    for (int i = 0; i < 18; ++i) events.push_back(StoneAt(i));
    AppendAll(*stub, id, events);
    if (HasFatalFailure()) return;
  }

  auto slow = SlowReaderStubFor(server->address());
  grpc::ClientContext ctx;
  ctx.set_deadline(absl::ToChronoTime(absl::Now() + absl::Seconds(20)));
  auto reader = slow->WatchAll(&ctx, v1::WatchAllRequest());
  reader->WaitForInitialMetadata();
  const absl::Time opened = absl::Now();
  // Time the test measures, not a wait for an event: the client reads
  // nothing for three times its stall timeout, nothing recorded meanwhile.
  absl::SleepFor(absl::Seconds(3));

  v1::WatchResponse m;
  int events = 0;
  while (reader->Read(&m)) events += m.has_event() ? 1 : 0;
  const grpc::Status s = reader->Finish();
  EXPECT_EQ(s.error_code(), grpc::StatusCode::CANCELLED)
      << s.error_code() << ": " << s.error_message() << " after "
      << absl::FormatDuration(absl::Now() - opened);
  EXPECT_LT(events, kGames * 20) << "the stream was not cut off";
}

// The server's shutdown (SIGTERM) ends every open stream at once with
// UNAVAILABLE, before gRPC's grace of a second runs out: the shutdown
// wakes the hub.
TEST(WatchHubTest, ShutdownEndsEveryStreamPromptly) {
  TempDir dir("arbiter-watch-hub-shutdown");
  auto server = ServerProcess::Start(dir.File("data"));
  ASSERT_NE(server, nullptr);
  auto stub = StubFor(server->address());
  AppendAll(*stub, "g", {Created("g", T0()), Started(T0())});
  if (HasFatalFailure()) return;

  constexpr int kStreams = 300;
  std::atomic<int> caught_up{0};
  WatcherPool pool(server->address(), 4, "", [&](int, const v1::WatchResponse& m) {
    if (m.has_caught_up()) ++caught_up;
  });
  OpenCaughtUp(pool, caught_up, kStreams);
  if (HasFatalFailure()) return;

  const absl::Time stopped = absl::Now();
  std::thread stopper([&] { server->Stop(SIGTERM); });
  const absl::Time deadline = stopped + absl::Seconds(10);
  while (pool.ended() < kStreams && absl::Now() < deadline) absl::SleepFor(absl::Milliseconds(5));
  const absl::Duration took = absl::Now() - stopped;
  stopper.join();
  ASSERT_EQ(pool.ended(), kStreams);
  EXPECT_LT(took, absl::Seconds(1)) << "the streams ended only after the grace";
  for (int i = 0; i < kStreams; ++i) {
    const std::optional<grpc::Status> s = pool.status(i);
    ASSERT_TRUE(s.has_value());
    EXPECT_EQ(s->error_code(), grpc::StatusCode::UNAVAILABLE) << i << ": " << s->error_message();
    EXPECT_TRUE(absl::StrContains(s->error_message(), "shutting down")) << s->error_message();
  }
}

}  // namespace
}  // namespace arbiter::testing
