// The web console under a tournament's load (issue 16), through a real
// in-process server (gRPC + console) on 127.0.0.1:
//
//   BM_Hall/500          the hall of 500 games in play: the page and the JSON
//                        of every game (GET / and GET /api/games), per load
//   BM_Followers/50      50 open pages following the live feed: one event
//                        recorded through gRPC, until every page has it
//
// Every game is the tournament sample's first 40 events
// (cli/examples/tournament-round3.jsonl), so each is in play with clocks,
// a warning and a pending ruling. Run: build/bin/console_bench
#include <atomic>
#include <cstdio>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "adjudicator/service/server.h"
#include "arbiter/v1/service.grpc.pb.h"
#include "benchmark/benchmark.h"
#include "grpcpp/create_channel.h"
#include "grpcpp/security/credentials.h"
#include "httplib.h"
#include "tests/support/event_lines.h"
#include "tests/support/paths.h"
#include "tests/support/temp_dir.h"

namespace arbiter {
namespace {

constexpr size_t kCreatedEvents = 40;

const std::vector<v1::Event>& Sample() {
  static const auto* events = [] {
    absl::StatusOr<std::vector<v1::Event>> e =
        testing::ReadEventLines(testing::SourcePath("cli/examples/tournament-round3.jsonl"));
    if (!e.ok()) {
      std::fprintf(stderr, "%s\n", e.status().ToString().c_str());
      std::abort();
    }
    return new std::vector<v1::Event>(*std::move(e));
  }();
  return *events;
}

// A server with `games` games in play, each at revision kCreatedEvents.
class Hall {
 public:
  explicit Hall(int games) : games_(games) {
    service::ServerOptions options;
    options.data_dir = dir_.File("data");
    options.listen = "127.0.0.1:0";
    options.http_listen = "127.0.0.1:0";
    options.live_timers = false;
    options.limits.writes_per_second = 0;  // one anonymous host drives it all
    options.limits.reads_per_second = 0;
    absl::StatusOr<std::unique_ptr<service::Server>> s = service::Server::Start(options);
    if (!s.ok()) {
      std::fprintf(stderr, "cannot start the server: %s\n", s.status().ToString().c_str());
      std::abort();
    }
    server_ = *std::move(s);
    stub_ = v1::Arbiter::NewStub(
        grpc::CreateChannel(server_->address(), grpc::InsecureChannelCredentials()));
    next_.assign(games, kCreatedEvents);
    for (int g = 0; g < games; ++g) {
      v1::AppendEventsRequest req;
      req.set_game(absl::StrCat("games/", Id(g)));
      for (size_t i = 0; i < kCreatedEvents; ++i) *req.add_events() = Sample()[i];
      req.mutable_events(0)->mutable_game_created()->set_game_id(Id(g));
      Append(req);
    }
  }

  static std::string Id(int g) { return absl::StrCat("board-", g + 1); }
  std::string url() const { return absl::StrCat("http://", server_->console_address()); }

  // Records the next event of the games in turn.
  void RecordNext() {
    const int g = turn_++ % games_;
    v1::AppendEventsRequest req;
    req.set_game(absl::StrCat("games/", Id(g)));
    *req.add_events() = Sample()[next_[g]++ % Sample().size()];
    Append(req);
  }

 private:
  void Append(const v1::AppendEventsRequest& req) {
    v1::AppendEventsResponse resp;
    grpc::ClientContext ctx;
    grpc::Status s = stub_->AppendEvents(&ctx, req, &resp);
    if (!s.ok()) {
      std::fprintf(stderr, "append to %s: %s\n", req.game().c_str(), s.error_message().c_str());
      std::abort();
    }
  }

  const int games_;
  int turn_ = 0;
  std::vector<size_t> next_;
  testing::TempDir dir_{"console-bench"};
  std::unique_ptr<service::Server> server_;
  std::unique_ptr<v1::Arbiter::Stub> stub_;
};

void BM_Hall(benchmark::State& state) {
  Hall hall(static_cast<int>(state.range(0)));
  httplib::Client client(hall.url());
  size_t bytes = 0;
  for (auto _ : state) {
    httplib::Result page = client.Get("/");
    httplib::Result games = client.Get("/api/games");
    if (!page || !games || games->status != 200) {
      state.SkipWithError("the hall did not load");
      return;
    }
    bytes = games->body.size();
  }
  state.counters["json_bytes"] = static_cast<double>(bytes);
}
BENCHMARK(BM_Hall)->Arg(500)->Unit(benchmark::kMillisecond)->UseRealTime();

// Pages following the feed, each counting the game events it was sent.
class Followers {
 public:
  Followers(const std::string& url, int pages) {
    for (int i = 0; i < pages; ++i) {
      threads_.emplace_back([this, url] {
        httplib::Client client(url);
        client.set_read_timeout(60);
        client.Get("/api/feed", [this](const char* data, size_t size) {
          const absl::string_view text(data, size);
          const int n = CountEvents(text);
          absl::MutexLock lock(&mu_);
          if (absl::StrContains(text, "retry: ")) ++connected_;  // the feed's greeting
          seen_ += n;
          return !stopping_;
        });
      });
    }
  }
  ~Followers() {
    for (std::thread& t : threads_) t.join();
  }

  // Waits until every page follows the feed.
  bool WaitConnected(int pages, absl::Duration timeout) {
    absl::MutexLock lock(&mu_);
    auto done = [&]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) { return connected_ >= pages; };
    return mu_.AwaitWithTimeout(absl::Condition(&done), timeout);
  }

  // Waits until the pages were sent `total` game events in all.
  bool WaitFor(int64_t total, absl::Duration timeout) {
    absl::MutexLock lock(&mu_);
    auto done = [&]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) { return seen_ >= total; };
    return mu_.AwaitWithTimeout(absl::Condition(&done), timeout);
  }
  int64_t seen() {
    absl::MutexLock lock(&mu_);
    return seen_;
  }
  // The pages close at their next message.
  void Close() {
    absl::MutexLock lock(&mu_);
    stopping_ = true;
  }

 private:
  static int CountEvents(absl::string_view text) {
    int n = 0;
    for (size_t at = text.find("event: game"); at != absl::string_view::npos;
         at = text.find("event: game", at + 1)) {
      ++n;
    }
    return n;
  }
  absl::Mutex mu_;
  int64_t seen_ ABSL_GUARDED_BY(mu_) = 0;
  int connected_ ABSL_GUARDED_BY(mu_) = 0;
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  std::vector<std::thread> threads_;
};

void BM_Followers(benchmark::State& state) {
  const int pages = static_cast<int>(state.range(0));
  Hall hall(100);
  Followers followers(hall.url(), pages);
  if (!followers.WaitConnected(pages, absl::Seconds(10))) {
    state.SkipWithError("the pages did not all connect within 10 s");
  }
  int64_t events = 0;
  absl::Duration worst;
  for (auto _ : state) {
    const absl::Time t0 = absl::Now();
    hall.RecordNext();
    ++events;
    if (!followers.WaitFor(events * pages, absl::Seconds(5))) {
      state.SkipWithError("a page did not get the event within 5 s");
      break;
    }
    worst = std::max(worst, absl::Now() - t0);
  }
  followers.Close();
  hall.RecordNext();  // each page reads once more, and closes
  state.counters["pages"] = pages;
  state.counters["worst_ms"] = absl::ToDoubleMilliseconds(worst);
  state.counters["deliveries"] =
      benchmark::Counter(static_cast<double>(followers.seen()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_Followers)->Arg(50)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace arbiter

BENCHMARK_MAIN();
