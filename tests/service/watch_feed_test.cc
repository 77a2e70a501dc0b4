// Issue 32.1: the watch streams follow the ledger's commit feed, with no
// thread of their own. Through a real `arbiter serve` child process.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <fstream>
#include <map>
#include <thread>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "gtest/gtest.h"
#include "tests/service/e2e_util.h"
#include "tests/support/arbiter_process.h"
#include "tests/support/temp_dir.h"
#include "tests/support/watchers.h"

namespace arbiter::testing {
namespace {

// The i-th stone of a game on every other point: no capture, no suicide.
std::string Point(int i) {
  static constexpr char kColumns[] = "ABCDEFGHJKLMNOPQRST";
  return absl::StrCat(std::string(1, kColumns[(i % 10) * 2]), (i / 10) * 2 + 1);
}

v1::Event Stone(int i) {
  return MoveAt(T0() + absl::Seconds(10 + i), i % 2 ? v1::WHITE : v1::BLACK, Point(i));
}

void AppendOne(v1::Arbiter::Stub& stub, const std::string& game, const v1::Event& e) {
  v1::AppendEventsResponse resp;
  const grpc::Status s = Append(stub, game, {e}, &resp);
  ASSERT_TRUE(s.ok()) << s.error_code() << ": " << s.error_message();
}

int64_t Threads(pid_t pid) { return ProcStatusField(pid, "Threads"); }

// What each watcher received: the cursors of its events, and where its
// caught_up came (its index among the events) and said.
struct Received {
  std::vector<uint64_t> cursors;
  int caught_up_at = -1;
  int caught_ups = 0;
  uint64_t caught_up_cursor = 0;
};

class Log {
 public:
  explicit Log(std::vector<bool> by_game) : by_game_(std::move(by_game)), got_(by_game_.size()) {}
  void Add(int i, const v1::WatchResponse& m) {
    absl::MutexLock lock(&mu_);
    Received& r = got_[i];
    if (m.has_caught_up()) {
      r.caught_up_at = static_cast<int>(r.cursors.size());
      ++r.caught_ups;
      r.caught_up_cursor = by_game_[i] ? m.caught_up().revision() : m.caught_up().position();
    } else {
      r.cursors.push_back(by_game_[i] ? m.event().revision() : m.event().position());
    }
  }
  // Waits until every watcher's last cursor is `last_of(i)`.
  bool AwaitAll(const std::function<uint64_t(int)>& last_of, absl::Duration timeout) {
    absl::MutexLock lock(&mu_);
    auto done = [&]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
      for (size_t i = 0; i < got_.size(); ++i) {
        if (got_[i].cursors.empty() || got_[i].cursors.back() < last_of(i)) return false;
      }
      return true;
    };
    return mu_.AwaitWithTimeout(absl::Condition(&done), timeout);
  }
  Received at(int i) {
    absl::MutexLock lock(&mu_);
    return got_[i];
  }

 private:
  const std::vector<bool> by_game_;
  absl::Mutex mu_;
  std::vector<Received> got_ ABSL_GUARDED_BY(mu_);
};

// A restarted server holds nothing of the ledger in its feed: what was
// recorded before is history, read from the database, and what is recorded
// now comes from the feed. Watchers start from many places while events are
// appended one commit at a time, so some join just as a commit lands: each
// gets every position (revision) after its start exactly once, in order,
// and one caught_up at the end of what was recorded when it joined.
TEST(WatchFeedTest, HistoryJoinsTheFeedWithoutGapOrRepeat) {
  TempDir dir("arbiter-watch-join");
  const std::string data = dir.File("data");
  constexpr int kBefore = 30, kAfter = 100;
  {
    auto first = ServerProcess::Start(data);
    ASSERT_NE(first, nullptr);
    auto stub = StubFor(first->address());
    for (const std::string game : {"a", "b"}) {
      std::vector<v1::Event> events = {Created(game, T0()), Started(T0())};
      for (int i = 0; i < kBefore; ++i) events.push_back(Stone(i));
      v1::AppendEventsResponse resp;
      ASSERT_TRUE(Append(*stub, game, events, &resp).ok());
    }
  }
  auto server = ServerProcess::Start(data);
  ASSERT_NE(server, nullptr);
  auto stub = StubFor(server->address());
  const uint64_t recorded = 2 * (2 + kBefore);
  const uint64_t last_position = recorded + 2 * (kAfter - kBefore);
  const uint64_t last_revision = 2 + kAfter;

  constexpr int kWatchers = 28;
  std::vector<bool> by_game;
  for (int i = 0; i < kWatchers; ++i) by_game.push_back(i % 2 == 1);
  Log log(by_game);
  std::vector<uint64_t> after(kWatchers);
  WatcherPool pool(server->address(), 4, "",
                   [&log](int i, const v1::WatchResponse& m) { log.Add(i, m); });
  int opened = 0;
  for (int i = kBefore; i < kAfter; ++i) {
    AppendOne(*stub, "a", Stone(i));
    AppendOne(*stub, "b", Stone(i));
    if (HasFatalFailure()) return;
    // Two watchers every five stones, from ever later places.
    if (i % 5 == 0 && opened < kWatchers) {
      after[opened] = opened * 5;  // a position (WatchAll)
      pool.Open("", after[opened]);
      ++opened;
      after[opened] = opened * 2;  // a revision of game a (WatchGame)
      pool.Open("a", after[opened]);
      ++opened;
    }
  }
  ASSERT_EQ(opened, kWatchers);
  if (!log.AwaitAll([&](int i) { return by_game[i] ? last_revision : last_position; },
                    absl::Seconds(20))) {
    for (int i = 0; i < kWatchers; ++i) {
      const Received r = log.at(i);
      const std::optional<grpc::Status> s = pool.status(i);
      ADD_FAILURE() << "watcher " << i << " after " << after[i] << ": " << r.cursors.size()
                    << " events, the last " << (r.cursors.empty() ? 0 : r.cursors.back())
                    << ", caught up " << r.caught_ups << "; "
                    << (s ? absl::StrCat("ended ", s->error_code(), " ", s->error_message())
                          : "open");
    }
    FAIL() << "not every watcher got to the last event";
  }
  for (int i = 0; i < kWatchers; ++i) {
    SCOPED_TRACE(
        absl::StrCat("watcher ", i, by_game[i] ? " (game a)" : " (log)", " after ", after[i]));
    const Received r = log.at(i);
    const uint64_t last = by_game[i] ? last_revision : last_position;
    std::vector<uint64_t> want;
    for (uint64_t c = after[i] + 1; c <= last; ++c) want.push_back(c);
    EXPECT_EQ(r.cursors, want);
    EXPECT_EQ(r.caught_ups, 1);
    ASSERT_GE(r.caught_up_at, 0);
    // caught_up names the last event sent before it.
    EXPECT_EQ(r.caught_up_cursor, r.caught_up_at == 0 ? after[i] : r.cursors[r.caught_up_at - 1]);
  }
  EXPECT_EQ(pool.ended(), 0);
}

// Many watch streams hold no server thread each: 600 of them (WatchAll and
// WatchGame), all caught up and then each given a new event, while the
// server's threads stay few. Before, each stream had a thread of its own
// that polled the database every 200 ms.
TEST(WatchFeedTest, ManyStreamsHoldNoThreadEach) {
  TempDir dir("arbiter-watch-threads");
  auto server = ServerProcess::Start(dir.File("data"));
  ASSERT_NE(server, nullptr);
  auto stub = StubFor(server->address());
  v1::AppendEventsResponse resp;
  // Another game first, so that g's revisions are not the log's positions:
  // g's events are positions 4 and 5, revisions 1 and 2.
  ASSERT_TRUE(Append(*stub, "f", {Created("f", T0()), Started(T0()), Stone(0)}, &resp).ok());
  ASSERT_TRUE(Append(*stub, "g", {Created("g", T0()), Started(T0())}, &resp).ok());
  const int64_t before = Threads(server->pid());

  // Half WatchAll from the log's head (position 5), half WatchGame of g
  // from its head (revision 2): each is sent nothing until the new event.
  constexpr int kStreams = 600;
  std::vector<bool> by_game;
  for (int i = 0; i < kStreams; ++i) by_game.push_back(i % 2 == 1);
  Log log(by_game);
  std::atomic<int> caught_up{0};
  WatcherPool pool(server->address(), 6, "", [&](int i, const v1::WatchResponse& m) {
    log.Add(i, m);
    if (m.has_caught_up()) ++caught_up;
  });
  for (int i = 0; i < kStreams; ++i) pool.Open(by_game[i] ? "g" : "", by_game[i] ? 2 : 5);
  const absl::Time deadline = absl::Now() + absl::Seconds(20);
  while (caught_up < kStreams && pool.ended() == 0 && absl::Now() < deadline) {
    absl::SleepFor(absl::Milliseconds(20));
  }
  ASSERT_EQ(caught_up.load(), kStreams) << pool.ended() << " ended";
  const int64_t open = Threads(server->pid());

  AppendOne(*stub, "g", Stone(0));
  auto last_of = [&](int i) -> uint64_t { return by_game[i] ? 3 : 6; };  // revision, position
  ASSERT_TRUE(log.AwaitAll(last_of, absl::Seconds(20))) << "not every stream got the new event";
  const int64_t after = Threads(server->pid());
  for (int i = 0; i < kStreams; ++i) {
    const Received r = log.at(i);
    EXPECT_EQ(r.cursors, std::vector<uint64_t>{last_of(i)}) << "stream " << i;
    EXPECT_EQ(r.caught_up_at, 0) << "stream " << i;
  }
  EXPECT_LT(std::max(open, after), before + 16)
      << "threads: " << before << " before, " << open << " with " << kStreams << " streams open, "
      << after << " after an event went to all";
  EXPECT_EQ(pool.ended(), 0);
}

// A console page following /api/feed (Server-Sent Events) hears of a
// commit through the ledger's commit feed: the game as committed, by its
// revision. Before, the console's feed listened to the read model instead.
// A page follows from the feed's head as it is when the page connects,
// which the console's feed reaches shortly after each commit (a page may
// hear once more of a commit it loaded; never miss one): a first page,
// following from the start, shows when it has.
TEST(WatchFeedTest, AConsolePageFollowsTheCommitFeed) {
  TempDir dir("arbiter-watch-sse");
  auto server = ServerProcess::Start(dir.File("data"), {"--http", "127.0.0.1:0"});
  ASSERT_NE(server, nullptr);
  ASSERT_FALSE(server->console_address().empty()) << server->log();
  auto stub = StubFor(server->address());
  v1::AppendEventsResponse resp;
  ASSERT_TRUE(Append(*stub, "g", {Created("g", T0()), Started(T0())}, &resp).ok());

  const std::string address = server->console_address();
  const size_t colon = address.rfind(':');
  sockaddr_in sa{};
  sa.sin_family = AF_INET;
  sa.sin_port = htons(static_cast<uint16_t>(std::stoi(address.substr(colon + 1))));
  ASSERT_EQ(inet_pton(AF_INET, address.substr(0, colon).c_str(), &sa.sin_addr), 1);
  // A page following `path`: its socket (-1 if it could not connect).
  auto follow = [&](const std::string& path) {
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (connect(fd, reinterpret_cast<sockaddr*>(&sa), sizeof sa) != 0) {
      close(fd);
      return -1;
    }
    const std::string request = absl::StrCat("GET ", path, " HTTP/1.1\r\nHost: ", address,
                                             "\r\nAccept: text/event-stream\r\n\r\n");
    if (write(fd, request.data(), request.size()) != static_cast<ssize_t>(request.size())) {
      close(fd);
      return -1;
    }
    return fd;
  };
  // Reads `fd` into `got` until `text` has come, for at most 10 s.
  auto await = [](int fd, std::string& got, const std::string& text) {
    const absl::Time give_up = absl::Now() + absl::Seconds(10);
    while (!absl::StrContains(got, text) && absl::Now() < give_up) {
      pollfd p{fd, POLLIN, 0};
      if (poll(&p, 1, 100) <= 0) continue;
      char chunk[4096];
      const ssize_t n = read(fd, chunk, sizeof chunk);
      if (n <= 0) break;
      got.append(chunk, n);
    }
    return absl::StrContains(got, text);
  };
  const int first = follow("/api/feed?after=0");
  ASSERT_GE(first, 0);
  std::string from_start;
  ASSERT_TRUE(await(first, from_start, "\"revision\":\"2\"")) << from_start;
  close(first);

  const int fd = follow("/api/feed");
  ASSERT_GE(fd, 0);
  std::string got;
  ASSERT_TRUE(await(fd, got, ": following")) << got;
  AppendOne(*stub, "g", Stone(0));
  EXPECT_TRUE(await(fd, got, "\"revision\":\"3\"")) << got;
  EXPECT_TRUE(absl::StrContains(got, "event: game")) << got;
  EXPECT_FALSE(absl::StrContains(got, "\"revision\":\"2\"")) << "the page follows from now";
  close(fd);
}

}  // namespace
}  // namespace arbiter::testing
