// Thousands of watchers on one server (issue 32.1): WatchAll and WatchGame
// streams and console pages following /api/feed (Server-Sent Events),
// mixed, against a real `arbiter serve` child process on 127.0.0.1.
//
//   BM_Watchers   opens WATCH_BENCH_WATCHERS watchers (default 5000: of
//                 them WATCH_BENCH_SSE console pages, default half, the
//                 rest half WatchAll and half WatchGame of the one game
//                 recorded), waits until every one has caught up, then
//                 records WATCH_BENCH_EVENTS events (default 40) one commit
//                 each, WATCH_BENCH_GAP apart (default 250 ms).
//
// Reported:
//   rss_per_idle_grpc_KiB  the server's resident memory growth (VmRSS, before
//                          and after they open, all idle) per gRPC stream
//   rss_per_idle_sse_KiB   the same per SSE page (parked on the console's
//                          one loop for all pages: console/followers.h)
//   deliver_p50_ms, deliver_p99_ms, deliver_max_ms
//                          from the append's call to each watcher's receipt
//                          of that event, over every (event, watcher)
//   all_p99_ms             per event, the time until the last watcher had
//                          it; the 99th percentile over the events
//   sse_deliver_p50_ms, sse_deliver_p99_ms
//                          the same as deliver_* over the SSE pages only
//   server_cpu_ms_per_event, bench_cpu_ms_per_event
//                          CPU time (user + system) the server and this
//                          process (the clients) spent while the events were
//                          recorded and delivered, per event: less sensitive
//                          than the latencies to other load on the machine
//   server_threads         the server's threads with all of them open
//
// The clients live in this process: two threads of gRPC async streams
// (tests/support/watchers.h) and one epoll thread for the SSE pages, so the
// figures include the clients' own delay on a shared machine. The process
// raises its open-file limit to the hard limit (the child inherits it).
// Run: build/bin/watchers_bench
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "adjudicator/engine/proto_time.h"
#include "arbiter/v1/service.grpc.pb.h"
#include "benchmark/benchmark.h"
#include "grpcpp/grpcpp.h"
#include "tests/bench/bench_env.h"
#include "tests/support/arbiter_process.h"
#include "tests/support/temp_dir.h"
#include "tests/support/watchers.h"

namespace arbiter::testing {
namespace {

v1::Event At(absl::Time t) {
  v1::Event e;
  ToProto(t, e.mutable_at());
  return e;
}

const absl::Time kT0 = absl::FromUnixSeconds(1777626000);

// The i-th stone on every other point: no capture, no suicide (100 at most).
v1::Event Stone(int i) {
  static constexpr char kColumns[] = "ABCDEFGHJKLMNOPQRST";
  v1::Event e = At(kT0 + absl::Seconds(10 + i));
  e.mutable_move()->set_color(i % 2 ? v1::WHITE : v1::BLACK);
  e.mutable_move()->set_point(
      absl::StrCat(std::string(1, kColumns[(i % 10) * 2]), (i / 10) * 2 + 1));
  return e;
}

bool AppendEvents(v1::Arbiter::Stub& stub, const std::vector<v1::Event>& events) {
  grpc::ClientContext ctx;
  ctx.set_deadline(absl::ToChronoTime(absl::Now() + absl::Seconds(30)));
  v1::AppendEventsRequest req;
  req.set_game("games/g");
  for (const v1::Event& e : events) *req.add_events() = e;
  v1::AppendEventsResponse resp;
  const grpc::Status s = stub.AppendEvents(&ctx, req, &resp);
  if (!s.ok()) std::fprintf(stderr, "append: %s\n", s.error_message().c_str());
  return s.ok();
}

// When each watcher received each event (by its index 1..events).
class Arrivals {
 public:
  Arrivals(int watchers, int events)
      : events_(events), at_(watchers, std::vector<absl::Time>(events + 1, absl::InfinitePast())) {}
  void Got(int watcher, int event) {
    if (event < 1 || event > events_) return;
    const absl::Time now = absl::Now();
    absl::MutexLock lock(&mu_);
    if (at_[watcher][event] == absl::InfinitePast()) {
      at_[watcher][event] = now;
      ++count_;
    }
  }
  void CaughtUp() {
    absl::MutexLock lock(&mu_);
    ++caught_up_;
  }
  bool Await(int64_t count, int caught_up, absl::Duration timeout) {
    absl::MutexLock lock(&mu_);
    auto done = [&]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
      return count_ >= count && caught_up_ >= caught_up;
    };
    return mu_.AwaitWithTimeout(absl::Condition(&done), timeout);
  }
  std::vector<std::vector<absl::Time>> at() {
    absl::MutexLock lock(&mu_);
    return at_;
  }

 private:
  const int events_;
  absl::Mutex mu_;
  std::vector<std::vector<absl::Time>> at_ ABSL_GUARDED_BY(mu_);
  int64_t count_ ABSL_GUARDED_BY(mu_) = 0;
  int caught_up_ ABSL_GUARDED_BY(mu_) = 0;
};

// Console pages following /api/feed, on one epoll thread. A page's message
// for game g names its revision; event k is revision 2 + k. A page the
// console refuses (503 when more connections wait for its threads than it
// lets wait, or closed before it followed) asks again 1-2 s later, as the
// console's own script does (static/live.js follow()).
class SsePages {
 public:
  SsePages(const std::string& address, int pages, int first_index, Arrivals* arrivals)
      : arrivals_(arrivals),
        first_index_(first_index),
        request_(absl::StrCat("GET /api/feed HTTP/1.1\r\nHost: ", address,
                              "\r\nAccept: text/event-stream\r\n\r\n")),
        pages_(pages) {
    const size_t colon = address.rfind(':');
    sa_.sin_family = AF_INET;
    sa_.sin_port = htons(static_cast<uint16_t>(std::stoi(address.substr(colon + 1))));
    inet_pton(AF_INET, address.substr(0, colon).c_str(), &sa_.sin_addr);
    epoll_ = epoll_create1(0);
    for (int i = 0; i < pages; ++i) Open(i);
    thread_ = std::thread([this] { Run(); });
  }
  ~SsePages() {
    stop_ = true;
    thread_.join();
    for (const Page& p : pages_) {
      if (p.fd >= 0) close(p.fd);
    }
    close(epoll_);
  }
  int opened() const { return static_cast<int>(pages_.size()); }
  int retries() const { return retries_; }

 private:
  struct Page {
    int fd = -1;
    bool following = false;
    std::string buffer;
    absl::Time retry_at = absl::InfiniteFuture();
  };

  void Open(int i) {
    Page& p = pages_[i];
    p.buffer.clear();
    p.fd = socket(AF_INET, SOCK_STREAM, 0);
    if (connect(p.fd, reinterpret_cast<const sockaddr*>(&sa_), sizeof sa_) != 0 ||
        write(p.fd, request_.data(), request_.size()) != static_cast<ssize_t>(request_.size())) {
      return Refused(i);
    }
    fcntl(p.fd, F_SETFL, fcntl(p.fd, F_GETFL) | O_NONBLOCK);
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.u32 = static_cast<uint32_t>(i);
    epoll_ctl(epoll_, EPOLL_CTL_ADD, p.fd, &ev);
  }
  void Refused(int i) {
    Page& p = pages_[i];
    close(p.fd);  // also leaves the epoll set
    p.fd = -1;
    p.retry_at = absl::Now() + absl::Milliseconds(1000 + rand_r(&seed_) % 1000);
    ++retries_;
  }
  void Run() {
    epoll_event events[64];
    char chunk[16384];
    while (!stop_) {
      const int n = epoll_wait(epoll_, events, 64, 100);
      for (int k = 0; k < n; ++k) {
        const uint32_t i = events[k].data.u32;
        Page& p = pages_[i];
        ssize_t got;
        while ((got = read(p.fd, chunk, sizeof chunk)) > 0) p.buffer.append(chunk, got);
        Parse(i);
        if (!p.following && (got == 0 || absl::StartsWith(p.buffer, "HTTP/1.1 503"))) Refused(i);
      }
      const absl::Time now = absl::Now();
      for (int i = 0; i < static_cast<int>(pages_.size()); ++i) {
        if (pages_[i].fd < 0 && pages_[i].retry_at <= now) {
          pages_[i].retry_at = absl::InfiniteFuture();
          Open(i);
        }
      }
    }
  }
  // Whole lines only; a page is caught up once its hello comes.
  void Parse(uint32_t i) {
    Page& p = pages_[i];
    std::string& b = p.buffer;
    size_t start = 0;
    for (size_t nl; (nl = b.find('\n', start)) != std::string::npos; start = nl + 1) {
      const absl::string_view line(b.data() + start, nl - start);
      if (line == ": following" && !p.following) {
        p.following = true;
        arrivals_->CaughtUp();
      }
      if (!absl::StartsWith(line, "data: ")) continue;
      const size_t at = line.find("\"revision\":\"");
      if (at == absl::string_view::npos) continue;
      const absl::string_view rest = line.substr(at + 12);
      uint64_t revision = 0;
      if (absl::SimpleAtoi(rest.substr(0, rest.find('"')), &revision) && revision > 2) {
        arrivals_->Got(first_index_ + static_cast<int>(i), static_cast<int>(revision - 2));
      }
    }
    if (p.following || absl::StartsWith(b, "HTTP/1.1 503")) b.erase(0, start);
  }

  Arrivals* const arrivals_;
  const int first_index_;
  const std::string request_;
  sockaddr_in sa_{};
  int epoll_ = -1;
  std::vector<Page> pages_;
  unsigned seed_ = 1;
  std::atomic<int> retries_{0};
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

double Percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<size_t>(p * (v.size() - 1) + 0.5))];
}

void BM_Watchers(benchmark::State& state) {
  bench::RaiseFileLimit();
  const int watchers = bench::EnvInt("WATCH_BENCH_WATCHERS", 5000);
  const int events = std::min(bench::EnvInt("WATCH_BENCH_EVENTS", 40), 100);
  const absl::Duration gap = absl::Milliseconds(bench::EnvInt("WATCH_BENCH_GAP_MS", 250));
  const int pages = std::min(bench::EnvInt("WATCH_BENCH_SSE", watchers / 2), watchers);
  const int streams = watchers - pages;
  for (auto _ : state) {
    TempDir dir("arbiter-watchers-bench");
    auto server = ServerProcess::Start(
        dir.File("data"),
        {"--http", "127.0.0.1:0", "--watchers", "8192", "--watchers-per-caller", "8192",
         "--http-feeds-per-caller", "8192", "--read-rate", "0", "--write-rate", "0"});
    if (server == nullptr) return state.SkipWithError("the server did not start");
    auto stub = v1::Arbiter::NewStub(
        grpc::CreateChannel(server->address(), grpc::InsecureChannelCredentials()));
    v1::Event created = At(kT0);
    created.mutable_game_created()->set_game_id("g");
    created.mutable_game_created()->set_ruleset("cn-2002");
    created.mutable_game_created()->set_board_size(19);
    created.mutable_game_created()->set_venue(v1::GameCreated::SAME_SITE);
    ToProto(kT0, created.mutable_game_created()->mutable_scheduled_start());
    v1::Event started = At(kT0);
    started.mutable_game_started();
    if (!AppendEvents(*stub, {created, started})) return state.SkipWithError("append failed");

    Arrivals arrivals(watchers, events);
    absl::SleepFor(absl::Seconds(1));
    const int64_t rss_start = ProcStatusField(server->pid(), "VmRSS");
    // gRPC: event k is position 2 + k (WatchAll) and revision 2 + k (WatchGame).
    auto on_message = [&arrivals](int base) {
      return [&arrivals, base](int i, const v1::WatchResponse& m) {
        if (m.has_caught_up()) return arrivals.CaughtUp();
        const uint64_t c = m.event().revision();  // one game: position == revision
        arrivals.Got(base + i, static_cast<int>(c) - 2);
      };
    };
    const int half = streams / 2;
    {
      WatcherPool a(server->address(), 32, "", on_message(0));
      WatcherPool b(server->address(), 32, "", on_message(half));
      for (int i = 0; i < half; ++i) a.Open(i % 2 ? "g" : "", 2);
      for (int i = half; i < streams; ++i) b.Open(i % 2 ? "g" : "", 2);
      if (!arrivals.Await(0, streams, absl::Seconds(120))) {
        return state.SkipWithError("not every stream caught up");
      }
      absl::SleepFor(absl::Seconds(2));
      const int64_t rss_grpc = ProcStatusField(server->pid(), "VmRSS");
      SsePages sse(server->console_address(), pages, streams, &arrivals);
      if (!arrivals.Await(0, streams + sse.opened(), absl::Seconds(60))) {
        return state.SkipWithError("not every page followed");
      }
      absl::SleepFor(absl::Seconds(2));
      const int64_t rss_all = ProcStatusField(server->pid(), "VmRSS");
      const int64_t threads = ProcStatusField(server->pid(), "Threads");

      std::vector<absl::Time> sent(events + 1);
      const double server_cpu = ProcCpuMs(server->pid()), bench_cpu = ProcCpuMs(getpid());
      for (int k = 1; k <= events; ++k) {
        sent[k] = absl::Now();
        if (!AppendEvents(*stub, {Stone(k - 1)})) return state.SkipWithError("append failed");
        absl::SleepFor(gap);
      }
      const int reached = streams + sse.opened();
      const bool all = arrivals.Await(static_cast<int64_t>(reached) * events, 0, absl::Seconds(60));
      state.counters["server_cpu_ms_per_event"] = (ProcCpuMs(server->pid()) - server_cpu) / events;
      state.counters["bench_cpu_ms_per_event"] = (ProcCpuMs(getpid()) - bench_cpu) / events;
      std::vector<double> each, to_all, sse_each;
      int64_t missing = 0;
      const auto at = arrivals.at();
      for (int k = 1; k <= events; ++k) {
        double last = 0;
        for (int w = 0; w < reached; ++w) {
          if (at[w][k] == absl::InfinitePast()) {
            ++missing;
            continue;
          }
          const double ms = absl::ToDoubleMilliseconds(at[w][k] - sent[k]);
          each.push_back(ms);
          if (w >= streams) sse_each.push_back(ms);
          last = std::max(last, ms);
        }
        to_all.push_back(last);
      }
      if (!all) std::fprintf(stderr, "%lld deliveries missing\n", static_cast<long long>(missing));
      state.counters["watchers"] = reached;
      state.counters["grpc_streams"] = streams;
      state.counters["sse_pages"] = sse.opened();
      state.counters["sse_refused_and_asked_again"] = sse.retries();
      state.counters["events"] = events;
      state.counters["missing"] = static_cast<double>(missing);
      state.counters["rss_per_idle_grpc_KiB"] =
          static_cast<double>(rss_grpc - rss_start) / std::max(streams, 1);
      state.counters["rss_per_idle_sse_KiB"] =
          static_cast<double>(rss_all - rss_grpc) / std::max(sse.opened(), 1);
      state.counters["rss_start_MiB"] = rss_start / 1024.0;
      state.counters["rss_all_open_MiB"] = rss_all / 1024.0;
      state.counters["server_threads"] = static_cast<double>(threads);
      state.counters["deliver_p50_ms"] = Percentile(each, 0.5);
      state.counters["deliver_p99_ms"] = Percentile(each, 0.99);
      state.counters["deliver_max_ms"] = Percentile(each, 1.0);
      state.counters["all_p99_ms"] = Percentile(to_all, 0.99);
      state.counters["sse_deliver_p50_ms"] = Percentile(sse_each, 0.5);
      state.counters["sse_deliver_p99_ms"] = Percentile(sse_each, 0.99);
    }
  }
}
BENCHMARK(BM_Watchers)->Iterations(1)->Unit(benchmark::kSecond)->UseRealTime();

}  // namespace
}  // namespace arbiter::testing

BENCHMARK_MAIN();
