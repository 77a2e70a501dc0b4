// Connections without a thread each (issue 45.3): `arbiter serve` with its
// console runs at most 32 threads in all (gRPC's own included), fresh, while
// 200 console connections are held open by slow clients and 50 more read
// pages, and once a load of appends over gRPC is over. A server that gave
// each connection a thread (cpp-httplib's pool: 256 of them, 274 threads
// idle) cannot; one that serves connections on an event loop with a few
// workers can, whatever the clients.
#include <arpa/inet.h>
#include <dirent.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <fstream>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "arbiter/v1/service.grpc.pb.h"
#include "google/protobuf/util/json_util.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "tests/support/arbiter_process.h"
#include "tests/support/temp_dir.h"

namespace arbiter::testing {
namespace {

constexpr int kMaxThreads = 32;

// Each thread of `pid` by name, counted: "arb-http" -> 4.
std::map<std::string, int> Threads(pid_t pid) {
  std::map<std::string, int> names;
  const std::string tasks = absl::StrCat("/proc/", pid, "/task");
  DIR* dir = opendir(tasks.c_str());
  if (dir == nullptr) return names;
  while (const dirent* d = readdir(dir)) {
    const std::string tid = d->d_name;
    if (tid == "." || tid == "..") continue;
    std::ifstream comm(absl::StrCat(tasks, "/", tid, "/comm"));
    std::string name;
    if (std::getline(comm, name)) ++names[name];
  }
  closedir(dir);
  return names;
}

int Total(const std::map<std::string, int>& names) {
  int n = 0;
  for (const auto& [name, count] : names) n += count;
  return n;
}

std::string Listing(const std::map<std::string, int>& names) {
  std::string out;
  for (const auto& [name, count] : names) absl::StrAppend(&out, "  ", count, " ", name, "\n");
  return out;
}

// A client socket connected to `address` (host:port), or -1.
int Connect(const std::string& address) {
  const size_t colon = address.rfind(':');
  int port = 0;
  if (!absl::SimpleAtoi(address.substr(colon + 1), &port)) return -1;
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<uint16_t>(port));
  inet_pton(AF_INET, address.substr(0, colon).c_str(), &a.sin_addr);
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  if (connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

bool SendAll(int fd, const std::string& bytes) {
  return send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(bytes.size());
}

// Reads one whole answer to a GET of /api/games on a kept-alive
// connection: its head and its Content-Length's bytes; the status line.
std::string ReadAnswer(int fd) {
  std::string got;
  char chunk[8192];
  for (;;) {
    const size_t head_end = got.find("\r\n\r\n");
    if (head_end != std::string::npos) {
      const size_t at = got.find("Content-Length: ");
      size_t length = 0;
      if (at != std::string::npos && at < head_end &&
          !absl::SimpleAtoi(got.substr(at + 16, got.find("\r\n", at) - at - 16), &length)) {
        return "no length: " + got.substr(0, head_end);
      }
      if (got.size() >= head_end + 4 + length) return got.substr(0, got.find("\r\n"));
    }
    const ssize_t n = recv(fd, chunk, sizeof chunk, 0);
    if (n <= 0) return "closed: " + got.substr(0, 200);
    got.append(chunk, static_cast<size_t>(n));
  }
}

// Game `id` as one AppendEvents: created, started, and `moves` moves.
v1::AppendEventsRequest GameBatch(const std::string& id, int moves) {
  v1::AppendEventsRequest req;
  req.set_game("games/" + id);
  req.set_expected_revision(0);
  const std::string created = absl::StrCat(
      R"({"at": "2026-06-02T09:00:00Z", "gameCreated": {"gameId": ")", id,
      R"(", "ruleset": "cn-2002", "boardSize": 19, "black": {"name": "Li Wei", "rank": "6d"}, )",
      R"("white": {"name": "Zhou Rui", "rank": "6d"}, "venue": "SAME_SITE", )",
      R"("scheduledStart": "2026-06-02T09:00:00Z", "timeControl": {"mainTime": "3600s"}}})");
  std::vector<std::string> lines = {created,
                                    R"({"at": "2026-06-02T09:00:00Z", "gameStarted": {}})"};
  for (int m = 0; m < moves; ++m) {
    const std::string column(1, "ABCDEFGHJKLMNOPQRST"[m % 19]);
    lines.push_back(absl::StrCat(R"({"at": "2026-06-02T09:)", 10 + m / 60 % 50, ":",
                                 m % 60 < 10 ? "0" : "", m % 60, R"(Z", "move": {"color": ")",
                                 m % 2 == 0 ? "BLACK" : "WHITE", R"(", "point": ")", column,
                                 1 + m / 19, R"("}})"));
  }
  for (const std::string& line : lines) {
    if (!google::protobuf::util::JsonStringToMessage(line, req.add_events()).ok()) {
      ADD_FAILURE() << "not an event: " << line;
    }
  }
  return req;
}

// `clients` threads, each recording `games` games of 20 moves over gRPC and
// reading each back (AppendEvents, a callback method; GetGame, a
// synchronous one): the appends' load, with gRPC's pollers busy.
void LoadWithAppends(const std::string& address, int clients, int games) {
  std::atomic<int> failed{0};
  std::vector<std::thread> threads;
  for (int c = 0; c < clients; ++c) {
    threads.emplace_back([&, c] {
      auto stub =
          v1::Arbiter::NewStub(grpc::CreateChannel(address, grpc::InsecureChannelCredentials()));
      for (int g = 0; g < games; ++g) {
        const std::string id = absl::StrCat("load-", c, "-", g);
        grpc::ClientContext append;
        v1::AppendEventsResponse appended;
        if (!stub->AppendEvents(&append, GameBatch(id, 20), &appended).ok()) ++failed;
        grpc::ClientContext read;
        v1::GetGameRequest get;
        get.set_name("games/" + id);
        v1::Game game;
        if (!stub->GetGame(&read, get, &game).ok()) ++failed;
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(failed.load(), 0) << "calls refused under the load";
}

// `arbiter serve --http ... flags` fresh, with 250 console connections
// open, and once a load of appends is over: at most kMaxThreads each time.
void RunsAtMost32Threads(const std::vector<std::string>& flags) {
  const TempDir temp("arbiter-threads");
  std::vector<std::string> args = {"--http", "127.0.0.1:0"};
  args.insert(args.end(), flags.begin(), flags.end());
  auto server = ServerProcess::Start(temp.path() + "/data", args);
  ASSERT_NE(server, nullptr);
  ASSERT_FALSE(server->console_address().empty()) << server->log();
  const std::string console = server->console_address();

  // Fresh: it printed where it listens, after every part started.
  std::map<std::string, int> fresh = Threads(server->pid());
  EXPECT_LE(Total(fresh), kMaxThreads) << "fresh:\n" << Listing(fresh);

  // 200 slow clients, each holding a connection with half a request sent,
  // and 50 more reading a page ten times each on kept-alive connections.
  std::vector<int> slow;
  for (int i = 0; i < 200; ++i) {
    const int fd = Connect(console);
    ASSERT_GE(fd, 0) << "slow client " << i;
    ASSERT_TRUE(SendAll(fd, absl::StrCat("GET / HTTP/1.1\r\nHost: ", console, "\r\n")));
    slow.push_back(fd);
  }
  std::vector<int> readers;
  for (int i = 0; i < 50; ++i) {
    const int fd = Connect(console);
    ASSERT_GE(fd, 0) << "reader " << i;
    readers.push_back(fd);
  }
  const std::string get = absl::StrCat("GET /api/games HTTP/1.1\r\nHost: ", console, "\r\n\r\n");
  for (int round = 0; round < 10; ++round) {
    for (int fd : readers) ASSERT_TRUE(SendAll(fd, get));
    for (int fd : readers) ASSERT_EQ(ReadAnswer(fd), "HTTP/1.1 200 OK") << "round " << round;
  }
  // Every reader was answered while the slow ones still hold theirs.
  std::map<std::string, int> held = Threads(server->pid());
  EXPECT_LE(Total(held), kMaxThreads) << "with 250 console connections open:\n" << Listing(held);
  for (int fd : slow) close(fd);
  for (int fd : readers) close(fd);

  LoadWithAppends(server->address(), 32, 20);
  // Idle again: gRPC keeps polling with at most 8 of the threads it started
  // for the load (server.cc kIdlePollers); the others end once their call
  // is answered, and leave /proc a moment later: a bounded wait for that.
  std::map<std::string, int> after = Threads(server->pid());
  for (const absl::Time give_up = absl::Now() + absl::Seconds(30);
       Total(after) > kMaxThreads && absl::Now() < give_up;) {
    absl::SleepFor(absl::Milliseconds(250));
    after = Threads(server->pid());
  }
  EXPECT_LE(Total(after), kMaxThreads) << "after the appends:\n" << Listing(after);
  EXPECT_EQ(server->Stop(SIGTERM), 0) << server->log();
}

TEST(ThreadsTest, AServerWithItsConsoleRunsAtMost32Threads) { RunsAtMost32Threads({}); }

// The public broadcast (issue 46.4) adds its own thread and its viewers'
// loop: within the same 32.
TEST(ThreadsTest, AServerWithTheBroadcastRunsAtMost32Threads) {
  RunsAtMost32Threads({"--broadcast"});
}

}  // namespace
}  // namespace arbiter::testing
