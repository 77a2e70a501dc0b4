// The public broadcast at scale (issue 46.5): BROADCAST_BENCH_VIEWERS
// viewers (default 16000) of `/broadcast/events` on one `arbiter serve
// --broadcast` child (delay 0, plain HTTP on 127.0.0.1), while a recorder
// drives BROADCAST_BENCH_BOARDS boards (default 200), each recording a move
// every BROADCAST_BENCH_EVERY_MS (default 2000) through gRPC AppendEvents.
//
// Reported (one line each, "name value"):
//   viewers_following      viewers whose stream began (": following")
//   moves                  moves measured (after a warm-up of 5 s)
//   deliver_p50_ms, deliver_p99_ms, deliver_max_ms
//                          from the append's acknowledgement to a viewer's
//                          receipt of the move's event (its id names the
//                          ledger position), over every (move, viewer) pair;
//                          an event that arrives before the append's answer
//                          counts 0
//   missing                (move, viewer) pairs never received
//   viewers_cut_off        streams the server closed (then resumed with
//                          Last-Event-ID, as EventSource does)
//   append_late            appends begun more than 100 ms behind schedule
//   rss_per_viewer_KiB, anon_per_viewer_KiB, pss_per_viewer_KiB
//                          the server's VmRSS, RssAnon and Pss
//                          (smaps_rollup) after all viewers follow, idle,
//                          less before they connect, per viewer
//   server_cpu_pct, bench_cpu_pct
//                          CPU time of the server and of this process while
//                          the moves were measured, in % of one core
//
// The viewers connect from 127.0.0.2, .3, ... (at most 1000 per address, the
// server's per-address cap being 1024), on one epoll thread; the figures
// include this process's own delay on a shared machine. The process raises
// its open-file limit to the hard limit; the server inherits it.
// Run: tests/bench/broadcast_bench.sh (which sets `ulimit -n 20000`).
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/time/clock.h"
#include "adjudicator/engine/proto_time.h"
#include "arbiter/v1/service.grpc.pb.h"
#include "grpcpp/grpcpp.h"
#include "tests/bench/bench_env.h"
#include "tests/support/arbiter_process.h"
#include "tests/support/temp_dir.h"

namespace arbiter::testing {
namespace {

int64_t NowNs() { return absl::ToUnixNanos(absl::Now()); }

// The i-th stone on every other point: no capture, no suicide (100 at most).
v1::Event Stone(int i) {
  static constexpr char kColumns[] = "ABCDEFGHJKLMNOPQRST";
  v1::Event e;
  ToProto(absl::Now(), e.mutable_at());
  e.mutable_move()->set_color(i % 2 ? v1::WHITE : v1::BLACK);
  e.mutable_move()->set_point(
      absl::StrCat(std::string(1, kColumns[(i % 10) * 2]), (i / 10) * 2 + 1));
  return e;
}

// The positions of the appended events; 0 when the append failed.
uint64_t Append(v1::Arbiter::Stub& stub, const std::string& game,
                const std::vector<v1::Event>& events) {
  grpc::ClientContext ctx;
  ctx.set_deadline(absl::ToChronoTime(absl::Now() + absl::Seconds(30)));
  v1::AppendEventsRequest req;
  req.set_game(absl::StrCat("games/", game));
  for (const v1::Event& e : events) *req.add_events() = e;
  v1::AppendEventsResponse resp;
  const grpc::Status s = stub.AppendEvents(&ctx, req, &resp);
  if (!s.ok() || resp.events().empty()) {
    std::fprintf(stderr, "append %s: %s\n", game.c_str(), s.error_message().c_str());
    return 0;
  }
  return resp.events(resp.events_size() - 1).position();
}

bool CreateBoard(v1::Arbiter::Stub& stub, int board) {
  const std::string id = absl::StrCat("b", board);
  v1::Event created;
  ToProto(absl::Now(), created.mutable_at());
  created.mutable_game_created()->set_game_id(id);
  created.mutable_game_created()->set_ruleset("cn-2002");
  created.mutable_game_created()->set_board_size(19);
  created.mutable_game_created()->set_venue(v1::GameCreated::SAME_SITE);
  created.mutable_game_created()->mutable_black()->set_name(absl::StrCat("Black ", board));
  created.mutable_game_created()->mutable_white()->set_name(absl::StrCat("White ", board));
  ToProto(absl::Now(), created.mutable_game_created()->mutable_scheduled_start());
  v1::Event started;
  ToProto(absl::Now(), started.mutable_at());
  started.mutable_game_started();
  return Append(stub, id, {created, started}) != 0;
}

// When each move's append was acknowledged, by ledger position.
class Acks {
 public:
  explicit Acks(size_t positions) : at_(positions) {
    for (auto& a : at_) a.store(0);
  }
  void Set(uint64_t position, int64_t ns) {
    if (position < at_.size()) at_[position].store(ns, std::memory_order_release);
  }
  int64_t Get(uint64_t position) const {
    return position < at_.size() ? at_[position].load(std::memory_order_acquire) : 0;
  }
  size_t size() const { return at_.size(); }

 private:
  std::vector<std::atomic<int64_t>> at_;
};

// The viewers, on one epoll thread. A viewer refused (503) or cut off
// asks again 0.5-1.5 s later, resuming after the last id it had.
class Viewers {
 public:
  Viewers(const std::string& console, int count, Acks* acks)
      : acks_(acks), host_(console), viewers_(count), received_(acks->size()) {
    const size_t colon = console.rfind(':');
    port_ = htons(static_cast<uint16_t>(std::stoi(console.substr(colon + 1))));
    epoll_ = epoll_create1(0);
    for (auto& r : received_) r.store(0);
    thread_ = std::thread([this] { Run(); });
  }
  ~Viewers() {
    stop_ = true;
    thread_.join();
    for (const Viewer& v : viewers_) {
      if (v.fd >= 0) close(v.fd);
    }
    close(epoll_);
  }
  int following() const { return following_.load(); }
  int cut_off() const { return cut_off_.load(); }
  int refused() const { return refused_.load(); }
  // Receipts of positions in [from, to) are counted from now on.
  void Measure(uint64_t from, uint64_t to) {
    measure_from_.store(from);
    measure_to_.store(to);
  }
  uint64_t measured_from() const { return measure_from_.load(); }
  uint64_t bytes() const { return bytes_.load(); }
  uint32_t received(uint64_t position) const { return received_[position].load(); }
  // Latencies in ms, each (move, viewer) pair measured; the thread must be
  // idle (after the last move's receipts, or at the end).
  std::vector<double> Latencies() {
    absl::MutexLock lock(&mu_);
    std::vector<double> out = latencies_;
    for (const auto& [position, at] : early_) {
      out.push_back(std::max(0.0, static_cast<double>(at - acks_->Get(position)) / 1e6));
    }
    return out;
  }

 private:
  struct Viewer {
    int fd = -1;
    bool following = false;
    std::string carry;  // an incomplete line
    std::string last_id;
    absl::Time retry_at = absl::InfiniteFuture();
  };

  void Open(int i) {
    Viewer& v = viewers_[i];
    ++connecting_;
    v.carry.clear();
    v.following = false;
    v.fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    const int one = 1;
    setsockopt(v.fd, IPPROTO_IP, IP_BIND_ADDRESS_NO_PORT, &one, sizeof one);
    sockaddr_in from{};
    from.sin_family = AF_INET;
    from.sin_addr.s_addr = htonl(0x7f000002 + static_cast<uint32_t>(i / 1000));
    sockaddr_in to{};
    to.sin_family = AF_INET;
    to.sin_port = port_;
    to.sin_addr.s_addr = htonl(0x7f000001);
    if (bind(v.fd, reinterpret_cast<const sockaddr*>(&from), sizeof from) != 0 ||
        (connect(v.fd, reinterpret_cast<const sockaddr*>(&to), sizeof to) != 0 &&
         errno != EINPROGRESS)) {
      return Again(i);
    }
    epoll_event ev{};
    ev.events = EPOLLIN | EPOLLOUT | EPOLLONESHOT;  // EPOLLOUT: connected, send the request
    ev.data.u32 = static_cast<uint32_t>(i);
    epoll_ctl(epoll_, EPOLL_CTL_ADD, v.fd, &ev);
  }
  void SendRequest(int i) {
    Viewer& v = viewers_[i];
    std::string request = absl::StrCat("GET /broadcast/events HTTP/1.1\r\nHost: ", host_,
                                       "\r\nAccept: text/event-stream\r\n");
    if (!v.last_id.empty()) absl::StrAppend(&request, "Last-Event-ID: ", v.last_id, "\r\n");
    request += "\r\n";
    if (write(v.fd, request.data(), request.size()) != static_cast<ssize_t>(request.size())) {
      return Again(i);
    }
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.u32 = static_cast<uint32_t>(i);
    epoll_ctl(epoll_, EPOLL_CTL_MOD, v.fd, &ev);
  }
  void Again(int i) {
    Viewer& v = viewers_[i];
    if (!v.following) --connecting_;
    if (v.following) {
      --following_;
      ++cut_off_;
    } else {
      ++refused_;
    }
    close(v.fd);
    v.fd = -1;
    v.following = false;
    v.retry_at = absl::Now() + absl::Milliseconds(500 + rand_r(&seed_) % 1000);
  }
  void Run() {
    std::vector<epoll_event> events(512);
    std::vector<char> chunk(1 << 16);
    int next = 0;
    const int n_viewers = static_cast<int>(viewers_.size());
    while (!stop_) {
      // At most 200 connecting at once: the server answers a burst beyond its
      // connection cap with 503.
      while (next < n_viewers && connecting_ < 200) Open(next++);
      const int n = epoll_wait(epoll_, events.data(), static_cast<int>(events.size()), 50);
      for (int k = 0; k < n; ++k) {
        const int i = static_cast<int>(events[k].data.u32);
        Viewer& v = viewers_[i];
        if (v.fd < 0) continue;
        if ((events[k].events & EPOLLOUT) != 0 && !v.following) {
          SendRequest(i);
          continue;
        }
        ssize_t got;
        bool refused = false;
        while (!refused && (got = read(v.fd, chunk.data(), chunk.size())) > 0) {
          bytes_.fetch_add(static_cast<uint64_t>(got), std::memory_order_relaxed);
          refused = !Parse(i, chunk.data(), got);
        }
        if (refused || got == 0 || (got < 0 && errno != EAGAIN)) Again(i);
      }
      const absl::Time now = absl::Now();
      if (now >= sweep_) {
        sweep_ = now + absl::Milliseconds(100);
        for (int i = 0; i < next; ++i) {
          if (viewers_[i].fd < 0 && viewers_[i].retry_at <= now) {
            viewers_[i].retry_at = absl::InfiniteFuture();
            Open(i);
          }
        }
      }
    }
  }
  // False: the viewer was refused.
  bool Line(int i, absl::string_view line) {
    Viewer& v = viewers_[i];
    if (line == ": following") {
      if (!v.following) {
        v.following = true;
        --connecting_;
        ++following_;
      }
      return true;
    }
    if (!absl::StartsWith(line, "id: ")) {
      return v.following || !absl::StartsWith(line, "HTTP/1.1 ") ||
             absl::StartsWith(line, "HTTP/1.1 200");
    }
    v.last_id = std::string(line.substr(4));
    const size_t slash = line.rfind('/');
    uint64_t position = 0;
    if (slash == absl::string_view::npos || !absl::SimpleAtoi(line.substr(slash + 1), &position)) {
      return true;
    }
    if (position < measure_from_.load() || position >= measure_to_.load()) return true;
    const int64_t now = NowNs();
    received_[position].fetch_add(1);
    const int64_t ack = acks_->Get(position);
    absl::MutexLock lock(&mu_);
    if (ack == 0) {
      early_.emplace_back(position, now);
    } else {
      latencies_.push_back(std::max(0.0, static_cast<double>(now - ack) / 1e6));
    }
    return true;
  }
  // False: the viewer was refused.
  bool Parse(int i, const char* data, ssize_t size) {
    Viewer& v = viewers_[i];
    const char* p = data;
    const char* end = data + size;
    while (p < end) {
      const char* nl = static_cast<const char*>(memchr(p, '\n', end - p));
      if (nl == nullptr) {
        v.carry.append(p, end - p);
        if (v.carry.size() > 4096) v.carry.clear();  // a data line: not needed
        return true;
      }
      absl::string_view line(p, nl - p);
      std::string joined;
      if (!v.carry.empty()) {
        joined = v.carry + std::string(line);
        v.carry.clear();
        line = joined;
      }
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      if (!Line(i, line)) return false;
      p = nl + 1;
    }
    return true;
  }

  Acks* const acks_;
  const std::string host_;
  uint16_t port_ = 0;
  int epoll_ = -1;
  std::vector<Viewer> viewers_;
  std::vector<std::atomic<uint32_t>> received_;
  int connecting_ = 0;
  absl::Time sweep_ = absl::InfinitePast();
  unsigned seed_ = 1;
  std::atomic<int> following_{0};
  std::atomic<int> cut_off_{0};
  std::atomic<int> refused_{0};
  std::atomic<uint64_t> bytes_{0};  // read by all viewers: what the server wrote them
  std::atomic<uint64_t> measure_from_{~0ull};
  std::atomic<uint64_t> measure_to_{0};
  absl::Mutex mu_;
  std::vector<double> latencies_ ABSL_GUARDED_BY(mu_);
  std::vector<std::pair<uint64_t, int64_t>> early_ ABSL_GUARDED_BY(mu_);
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

double Percentile(std::vector<double>& v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<size_t>(p * (v.size() - 1) + 0.5))];
}

// Records a move on each board every `every`, boards spread evenly over
// the period, on `threads` threads; their positions and acknowledgements
// go to `acks`. Runs until `until`.
struct Recorder {
  std::atomic<uint64_t> first{~0ull};
  std::atomic<uint64_t> last{0};
  std::atomic<int> late{0};
  std::atomic<int> failed{0};

  void Run(v1::Arbiter::Stub& stub, int boards, absl::Duration every, absl::Time until, Acks* acks,
           int threads) {
    std::vector<std::thread> pool;
    const absl::Time start = absl::Now();
    for (int t = 0; t < threads; ++t) {
      pool.emplace_back([&, t] {
        std::vector<int> moves(boards, 0);
        for (int tick = 0;; ++tick) {
          const int board = (tick * threads + t) % boards;
          const int round = (tick * threads + t) / boards;
          const absl::Time due = start + every * round + every * board / boards;
          if (due >= until) return;
          absl::SleepFor(due - absl::Now());
          if (absl::Now() - due > absl::Milliseconds(100)) ++late;
          const uint64_t position =
              Append(stub, absl::StrCat("b", board), {Stone(moves[board]++ % 100)});
          if (position == 0) {
            ++failed;
            continue;
          }
          acks->Set(position, NowNs());
          uint64_t f = first.load();
          while (position < f && !first.compare_exchange_weak(f, position)) {
          }
          uint64_t l = last.load();
          while (position > l && !last.compare_exchange_weak(l, position)) {
          }
        }
      });
    }
    for (std::thread& t : pool) t.join();
  }
};

void Report(const char* name, double value) { std::printf("%-22s %.1f\n", name, value); }

int Main() {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // progress lines as they come
  bench::RaiseFileLimit();
  const int viewers = bench::EnvInt("BROADCAST_BENCH_VIEWERS", 16000);
  const int boards = bench::EnvInt("BROADCAST_BENCH_BOARDS", 200);
  const absl::Duration every = absl::Milliseconds(bench::EnvInt("BROADCAST_BENCH_EVERY_MS", 2000));
  const absl::Duration measure = absl::Seconds(bench::EnvInt("BROADCAST_BENCH_SECONDS", 30));
  const absl::Duration warm = absl::Seconds(5);
  rlimit r{};
  getrlimit(RLIMIT_NOFILE, &r);
  std::printf("open-file limit %llu (hard %llu)\n", static_cast<unsigned long long>(r.rlim_cur),
              static_cast<unsigned long long>(r.rlim_max));

  TempDir dir("arbiter-broadcast-bench");
  std::vector<std::string> flags = {
      "--http", "127.0.0.1:0", "--broadcast", "--read-rate", "0", "--write-rate", "0"};
  if (const char* more = std::getenv("BROADCAST_BENCH_SERVE_FLAGS"); more != nullptr) {
    for (absl::string_view f : absl::StrSplit(more, ' ', absl::SkipEmpty())) {
      flags.emplace_back(f);
    }
  }
  auto server = ServerProcess::Start(dir.File("data"), flags);
  if (server == nullptr) return 1;
  auto stub = v1::Arbiter::NewStub(
      grpc::CreateChannel(server->address(), grpc::InsecureChannelCredentials()));
  for (int b = 0; b < boards; ++b) {
    if (!CreateBoard(*stub, b)) return 1;
  }
  // Enough positions for every move of the run, and the boards' creation.
  const int64_t moves_max = static_cast<int64_t>(
      boards * (absl::FDivDuration(warm + measure, every) + 2) + 2 * boards + 16);
  Acks acks(static_cast<size_t>(moves_max + 2 * boards + 16));

  absl::SleepFor(absl::Seconds(1));  // the server settles: a figure, not a synchronisation
  const pid_t pid = server->pid();
  const int64_t rss0 = ProcStatusField(pid, "VmRSS"), anon0 = ProcStatusField(pid, "RssAnon"),
                pss0 = ProcRollupField(pid, "Pss");
  Viewers v(server->console_address(), viewers, &acks);
  const absl::Time deadline = absl::Now() + absl::Seconds(300);
  while (v.following() < viewers && absl::Now() < deadline) absl::SleepFor(absl::Milliseconds(50));
  std::printf("%d viewers following after %d refusals\n", v.following(), v.refused());
  std::printf("measuring from %s\n", absl::FormatTime(absl::Now() + absl::Seconds(7)).c_str());
  absl::SleepFor(absl::Seconds(2));
  const int64_t rss1 = ProcStatusField(pid, "VmRSS"), anon1 = ProcStatusField(pid, "RssAnon"),
                pss1 = ProcRollupField(pid, "Pss");
  const int following = v.following();

  // Warm-up, then the measured moves: those the recorder acknowledges after
  // `warm`, up to the end.
  Recorder recorder;
  const absl::Time start = absl::Now();
  uint64_t bytes0 = 0;
  std::thread measuring([&] {
    absl::SleepFor(warm);
    bytes0 = v.bytes();
    // Positions from here on are measured.
    v.Measure(recorder.last.load() + 1, acks.size());
  });
  const double server_cpu0 = ProcCpuMs(pid), bench_cpu0 = ProcCpuMs(getpid());
  recorder.Run(*stub, boards, every, start + warm + measure, &acks, 4);
  measuring.join();
  const double seconds = absl::ToDoubleSeconds(absl::Now() - start);
  const double server_cpu = ProcCpuMs(pid) - server_cpu0,
               bench_cpu = ProcCpuMs(getpid()) - bench_cpu0;
  const uint64_t last = recorder.last.load();
  // Waits for the last move's receipts (or 30 s).
  const absl::Time drain = absl::Now() + absl::Seconds(30);
  while (v.received(last) < static_cast<uint32_t>(following) && absl::Now() < drain) {
    absl::SleepFor(absl::Milliseconds(20));
  }
  absl::SleepFor(absl::Milliseconds(500));  // stragglers of earlier moves are counted as missing
  std::vector<double> lat = v.Latencies();
  int64_t measured_moves = 0, missing = 0;
  for (uint64_t p = v.measured_from(); p <= last; ++p) {
    if (acks.Get(p) == 0) continue;  // not a move
    ++measured_moves;
    missing += std::max<int64_t>(0, following - static_cast<int64_t>(v.received(p)));
  }
  Report("viewers_following", following);
  // The stream's bytes (events, chunk framing, keep-alives) the server wrote
  // to all viewers for each move measured.
  Report("bytes_per_move", static_cast<double>(v.bytes() - bytes0) /
                               static_cast<double>(std::max<int64_t>(measured_moves, 1)));
  Report("moves", static_cast<double>(measured_moves));
  Report("pairs", static_cast<double>(lat.size()));
  Report("deliver_p50_ms", Percentile(lat, 0.5));
  Report("deliver_p99_ms", Percentile(lat, 0.99));
  Report("deliver_max_ms", Percentile(lat, 1.0));
  Report("missing", static_cast<double>(missing));
  Report("viewers_cut_off", v.cut_off());
  Report("append_late", recorder.late.load());
  Report("append_failed", recorder.failed.load());
  Report("rss_per_viewer_KiB", static_cast<double>(rss1 - rss0) / std::max(following, 1));
  Report("anon_per_viewer_KiB", static_cast<double>(anon1 - anon0) / std::max(following, 1));
  Report("pss_per_viewer_KiB", static_cast<double>(pss1 - pss0) / std::max(following, 1));
  Report("rss_after_MiB", static_cast<double>(ProcStatusField(pid, "VmRSS")) / 1024);
  Report("server_cpu_pct", 100 * server_cpu / 1000 / seconds);
  Report("bench_cpu_pct", 100 * bench_cpu / 1000 / seconds);
  return 0;
}

}  // namespace
}  // namespace arbiter::testing

int main() { return arbiter::testing::Main(); }
