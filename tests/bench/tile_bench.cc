// Serving a 1M-event ledger as a C2SP tiled log over HTTP (issue 33.6): the
// console's own server (GuardedServer, its connection bounds and Host check)
// with the tile routes (console/tlog_tiles.h) over a SQLite ledger of
// TILE_BENCH_EVENTS events (default 1,000,000: 1,000 games of 1,000 moves,
// a checkpoint every 1,000), read by C clients on keep-alive connections,
// each asking for random tiles the latest checkpoint covers. Reported:
// requests/s, MB/s and p50/p99 per request; and, once, the time to build
// the log and the first tile's (the ledger hashes its proof tree from the
// stored leaf hashes then). Run: build/bin/tile_bench
#include <stdlib.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "adjudicator/service/console/guarded_server.h"
#include "adjudicator/service/console/tlog_tiles.h"
#include "benchmark/benchmark.h"
#include "httplib.h"
#include "ledger/ledger.h"
#include "ledger/tile_path.h"
#include "tests/support/temp_dir.h"

namespace arbiter {
namespace {

using ledger::ExpectedRevision;

// Judges nothing: the benchmark measures serving, not the engine.
class NullJudge : public ledger::Judge {
  class Game : public ledger::GameJudge {
    absl::StatusOr<ledger::Verdict> Apply(const v1::Event&) override { return ledger::Verdict(); }
    std::string RulesPin() const override { return "none"; }
    const v1::Result* result() const override { return nullptr; }
    std::unique_ptr<GameJudge> Clone() const override { return std::make_unique<Game>(); }
  };

 public:
  absl::StatusOr<std::unique_ptr<ledger::GameJudge>> Open(absl::string_view,
                                                          const v1::GameCreated&) override {
    return std::make_unique<Game>();
  }
  std::shared_ptr<const ledger::GameJudge> Committed(absl::string_view, uint64_t) override {
    return game_;
  }

 private:
  std::shared_ptr<const ledger::GameJudge> game_ = std::make_shared<Game>();
};

uint64_t EventsWanted() {
  const char* n = getenv("TILE_BENCH_EVENTS");
  const long long v = n != nullptr ? atoll(n) : 0;
  return v > 0 ? static_cast<uint64_t>(v) : 1000000;
}

// The log and its server, made once for every benchmark.
struct TiledLog {
  testing::TempDir dir{"tile-bench"};
  NullJudge judge;
  std::unique_ptr<ledger::Ledger> ledger;
  std::unique_ptr<service::console::TlogTiles> tiles;
  std::unique_ptr<service::console::GuardedServer> http;
  std::thread thread;
  int port = 0;
  uint64_t size = 0;
  double build_seconds = 0, first_tile_ms = 0;

  TiledLog() {
    ledger::LedgerOptions o;
    o.dir = dir.path();
    o.judge = &judge;
    o.checkpoint_every = 1000;
    o.log_origin = "bench.example/tiles";
    ledger = ledger::Ledger::Open(o).value();
    const uint64_t events = EventsWanted();
    const absl::Time start = absl::Now();
    for (uint64_t g = 0; size < events; ++g) {
      const std::string game = absl::StrCat("g", g);
      std::vector<v1::Event> batch;
      v1::Event created;
      created.mutable_game_created()->set_game_id(game);
      batch.push_back(created);
      for (uint64_t i = 1; i < 1000 && size + batch.size() < events; ++i) {
        v1::Event e;
        e.mutable_at()->set_seconds(1700000000 + i);
        e.mutable_move()->set_color(i % 2 ? v1::WHITE : v1::BLACK);
        e.mutable_move()->set_point("Q16");
        batch.push_back(std::move(e));
      }
      size += batch.size();
      if (auto r = ledger->AppendAndWait(
              ledger::AppendRequest::Game(game, ExpectedRevision::NoStream(), std::move(batch)));
          !r.ok()) {
        std::fprintf(stderr, "append: %s\n", r.status().ToString().c_str());
        abort();
      }
    }
    if (!ledger->Checkpoint().ok()) abort();
    build_seconds = absl::ToDoubleSeconds(absl::Now() - start);

    tiles = std::make_unique<service::console::TlogTiles>(ledger.get());
    http = std::make_unique<service::console::GuardedServer>(std::vector<std::string>{},
                                                             service::console::TlsContext());
    tiles->Route(*http);
    port = http->bind_to_any_port("127.0.0.1");
    http->WidenBacklog();
    thread = std::thread([this] { http->Listen(); });
    http->AwaitRunning();
    // The first tile, the last full one: the ledger reads every leaf hash
    // and hashes its proof tree up to there.
    const absl::Time first = absl::Now();
    httplib::Client c("127.0.0.1", port);
    ledger::TileAddress last;
    last.index = size / ledger::kTileWidth - 1;
    auto r = c.Get("/" + ledger::FormatTilePath(last));
    if (!r || r->status != 200) {
      std::fprintf(stderr, "first tile: %d\n", r ? r->status : -1);
      abort();
    }
    first_tile_ms = absl::ToDoubleMilliseconds(absl::Now() - first);
  }
  ~TiledLog() {
    http->Stop();
    thread.join();
  }
};

TiledLog& Log() {
  static TiledLog* log = new TiledLog;
  return *log;
}

enum Kind { kHashTile = 0, kEntryBundle = 1, kCheckpoint = 2 };

std::string RandomPath(Kind kind, uint64_t full_tiles, std::mt19937_64& rng) {
  if (kind == kCheckpoint) return "/checkpoint";
  ledger::TileAddress t;
  t.entries = kind == kEntryBundle;
  t.index = std::uniform_int_distribution<uint64_t>(0, full_tiles - 1)(rng);
  return "/" + ledger::FormatTilePath(t);
}

// range(0): the kind; range(1): the clients. Each iteration: 64 requests
// per client.
void BM_ServeTiles(benchmark::State& state) {
  TiledLog& log = Log();
  const Kind kind = static_cast<Kind>(state.range(0));
  const int clients = static_cast<int>(state.range(1));
  const uint64_t full_tiles = std::max<uint64_t>(1, log.size / ledger::kTileWidth);
  constexpr int kPerClient = 64;
  std::vector<double> latencies;
  int64_t requests = 0, bytes = 0;
  std::atomic<int64_t> reconnects{0};
  double seconds = 0;
  for (auto _ : state) {
    std::vector<std::vector<double>> lat(clients);
    std::vector<int64_t> got(clients, 0);
    std::atomic<bool> failed{false};
    const absl::Time start = absl::Now();
    std::vector<std::thread> threads;
    for (int c = 0; c < clients; ++c) {
      threads.emplace_back([&, c] {
        httplib::Client http("127.0.0.1", log.port);
        http.set_keep_alive(true);
        http.set_tcp_nodelay(true);
        std::mt19937_64 rng(c * 7919 + requests);
        for (int i = 0; i < kPerClient; ++i) {
          const std::string path = RandomPath(kind, full_tiles, rng);
          const absl::Time t0 = absl::Now();
          auto r = http.Get(path);
          // The server gives a kept-alive connection's thread to a waiting
          // one (guarded_server.h) by closing it after an answer: the next
          // request on it then fails and is sent again on a new connection,
          // as a browser does.
          if (!r) {
            ++reconnects;
            r = http.Get(path);
          }
          if (!r || r->status != 200) {
            std::fprintf(
                stderr, "GET %s: %s\n", path.c_str(),
                r ? std::to_string(r->status).c_str() : httplib::to_string(r.error()).c_str());
            failed = true;
            return;
          }
          lat[c].push_back(absl::ToDoubleMicroseconds(absl::Now() - t0));
          got[c] += r->body.size();
        }
      });
    }
    for (std::thread& t : threads) t.join();
    seconds += absl::ToDoubleSeconds(absl::Now() - start);
    if (failed) return state.SkipWithError("a request failed");
    for (int c = 0; c < clients; ++c) {
      latencies.insert(latencies.end(), lat[c].begin(), lat[c].end());
      bytes += got[c];
    }
    requests += int64_t{clients} * kPerClient;
  }
  std::sort(latencies.begin(), latencies.end());
  state.SetItemsProcessed(requests);
  state.SetBytesProcessed(bytes);
  state.counters["req_per_s"] = seconds > 0 ? requests / seconds : 0;
  state.counters["p50_us"] = latencies.empty() ? 0 : latencies[latencies.size() / 2];
  state.counters["p99_us"] =
      latencies.empty() ? 0
                        : latencies[std::min(latencies.size() - 1, latencies.size() * 99 / 100)];
  state.counters["reconnects"] = static_cast<double>(reconnects.load());
  state.counters["log_events"] = static_cast<double>(log.size);
  state.counters["build_s"] = log.build_seconds;
  state.counters["first_tile_ms"] = log.first_tile_ms;
}
BENCHMARK(BM_ServeTiles)
    ->ArgNames({"kind", "clients"})
    ->ArgsProduct({{kHashTile, kEntryBundle, kCheckpoint}, {1, 8}})
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace arbiter

BENCHMARK_MAIN();
