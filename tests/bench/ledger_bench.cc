// Durable appends per second and acknowledgement latency (p50/p99) of the
// ledger's group commit at 1, 16 and 256 concurrent writers, side by side
// with a plain SQLite insert loop of the same payloads in batched
// transactions (batches of 1, 16 and 256 rows) with the same durability
// (WAL, synchronous=FULL); see PlainSqliteBatched for its two forms. The
// ledger is driven two ways: N threads each blocked in Append, and N
// appends in flight through AppendAsync. The ratios to the plain loops are
// printed at the end.
//
// Run: build/bin/ledger_bench   (LEDGER_BENCH_DIR picks the disk; default $TMPDIR or /tmp)
#include <stdlib.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <functional>
#include <latch>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/blocking_counter.h"
#include "absl/time/clock.h"
#include "benchmark/benchmark.h"
#include "ledger/hash.h"
#include "ledger/ledger.h"
#include "ledger/sqlite.h"
#include "ledger/sqlite/schema.h"
#include "proto/canonical/canonical_bytes.h"
#include "tests/support/temp_dir.h"

namespace arbiter::ledger {
namespace {

// Judges nothing: the benchmark measures the store, not the engine.
class NullJudge : public Judge {
  // Stateless: every game's committed fold is the same one.
  class Game : public GameJudge {
    absl::StatusOr<Verdict> Apply(const v1::Event&) override { return Verdict(); }
    std::string RulesPin() const override { return "none"; }
    const v1::Result* result() const override { return nullptr; }
    std::unique_ptr<GameJudge> Clone() const override { return std::make_unique<Game>(); }
  };

 public:
  absl::StatusOr<std::unique_ptr<GameJudge>> Open(absl::string_view,
                                                  const v1::GameCreated&) override {
    return std::make_unique<Game>();
  }
  std::shared_ptr<const GameJudge> Committed(absl::string_view, uint64_t) override { return game_; }

 private:
  std::shared_ptr<const GameJudge> game_ = std::make_shared<Game>();
};

using ::arbiter::testing::TempDir;

// Where the scratch directories go: the disk LEDGER_BENCH_DIR names.
std::string BenchDisk() {
  const char* dir = getenv("LEDGER_BENCH_DIR");
  return dir != nullptr ? dir : "";
}

// A ledger in a scratch directory, judging nothing.
struct BenchLedger {
  TempDir dir{"ledger-bench", BenchDisk()};
  NullJudge judge;
  absl::StatusOr<std::unique_ptr<Ledger>> ledger;

  BenchLedger() {
    LedgerOptions o;
    o.dir = dir.path();
    o.judge = &judge;
    ledger = Ledger::Open(o);
  }
};

v1::Event Payload(const std::string& game, uint64_t n) {
  v1::Event e;
  e.mutable_at()->set_seconds(1700000000 + n);
  e.set_idempotency_key(absl::StrCat(game, "-", n));
  e.mutable_move()->set_color(n % 2 ? v1::WHITE : v1::BLACK);
  e.mutable_move()->set_point("Q16");
  return e;
}

// Appends per benchmark iteration, whatever the concurrency.
int PerWriter(int writers) { return std::max(16, 256 / writers); }

// Iterations per run, fixed rather than timed: every contender writes the
// same number of rows, so each ends on a database of the same size (the
// cost of a commit grows with the pages its indexes touch).
// LEDGER_BENCH_ITERATIONS sets them all (the CI's smoke run: that it runs,
// not what it measures).
int Iterations(int writers) {
  if (const char* n = getenv("LEDGER_BENCH_ITERATIONS"); n != nullptr) {
    if (const int set = atoi(n); set > 0) return set;
  }
  return writers == 1 ? 16 : writers == 16 ? 100 : 20;
}

struct Figures {
  double rate = 0, p50_us = 0, p99_us = 0;
};
std::map<std::pair<std::string, int>, Figures>& Results() {
  static auto* r = new std::map<std::pair<std::string, int>, Figures>;
  return *r;
}

void Report(benchmark::State& state, const std::string& name, int n, std::vector<double>& lat,
            int64_t items, double seconds) {
  std::sort(lat.begin(), lat.end());
  Figures f;
  f.rate = seconds > 0 ? items / seconds : 0;
  f.p50_us = lat.empty() ? 0 : lat[lat.size() / 2];
  f.p99_us = lat.empty() ? 0 : lat[std::min(lat.size() - 1, lat.size() * 99 / 100)];
  state.SetItemsProcessed(items);
  state.counters["p50_us"] = f.p50_us;
  state.counters["p99_us"] = f.p99_us;
  Results()[{name, n}] = f;
}

void BM_LedgerGroupCommit(benchmark::State& state) {
  const int writers = static_cast<int>(state.range(0));
  BenchLedger bench;
  auto& ledger = bench.ledger;
  if (!ledger.ok()) return state.SkipWithError(std::string(ledger.status().message()).c_str());
  std::vector<uint64_t> revisions(writers, 1);
  std::atomic<bool> setup_failed{false};
  {
    std::vector<std::thread> setup;  // concurrently, so it is group-committed too
    for (int w = 0; w < writers; ++w) {
      setup.emplace_back([&, w] {
        std::string game = absl::StrCat("w", w);
        v1::Event created;
        created.mutable_game_created()->set_game_id(game);
        if (!(*ledger)
                 ->AppendAndWait(AppendRequest::Game(game, ExpectedRevision::NoStream(), {created}))
                 .ok()) {
          setup_failed = true;
        }
      });
    }
    for (auto& t : setup) t.join();
  }
  if (setup_failed) return state.SkipWithError("setup failed");
  std::vector<double> latencies;
  std::mutex mu;
  int64_t items = 0;
  double seconds = 0;
  for (auto _ : state) {
    std::latch go(1);
    std::vector<std::thread> threads;
    for (int w = 0; w < writers; ++w) {
      threads.emplace_back([&, w] {
        std::string game = absl::StrCat("w", w);
        std::vector<double> mine;
        go.wait();
        for (int i = 0; i < PerWriter(writers); ++i) {
          v1::Event e = Payload(game, ++revisions[w]);
          absl::Time t0 = absl::Now();
          auto r = (*ledger)->AppendAndWait(
              AppendRequest::Game(game, ExpectedRevision::Exactly(revisions[w] - 1), {e}));
          mine.push_back(absl::ToDoubleMicroseconds(absl::Now() - t0));
          if (!r.ok()) std::abort();
        }
        std::lock_guard<std::mutex> lock(mu);
        latencies.insert(latencies.end(), mine.begin(), mine.end());
      });
    }
    absl::Time start = absl::Now();
    go.count_down();
    for (auto& t : threads) t.join();
    double s = absl::ToDoubleSeconds(absl::Now() - start);
    state.SetIterationTime(s);
    seconds += s;
    items += static_cast<int64_t>(writers) * PerWriter(writers);
  }
  Report(state, "ledger", writers, latencies, items, seconds);
}

// The same load with no thread per writer: N appends in flight through
// AppendAsync, each completion queueing that writer's next append.
void BM_LedgerGroupCommitAsync(benchmark::State& state) {
  const int writers = static_cast<int>(state.range(0));
  BenchLedger bench;
  auto& ledger = bench.ledger;
  if (!ledger.ok()) return state.SkipWithError(std::string(ledger.status().message()).c_str());
  struct Writer {
    std::string game;
    uint64_t revision = 0;
    int left = 0;
    absl::Time submitted;
  };
  std::vector<Writer> w(writers);
  std::vector<double> latencies;
  std::mutex mu;
  std::atomic<bool> failed{false};
  std::function<void(int, absl::BlockingCounter*)> next = [&](int i, absl::BlockingCounter* done) {
    Writer& me = w[i];
    v1::Event e = me.revision == 0 ? v1::Event() : Payload(me.game, me.revision + 1);
    if (me.revision == 0) e.mutable_game_created()->set_game_id(me.game);
    me.submitted = absl::Now();
    (*ledger)->Append(
        AppendRequest::Game(me.game, ExpectedRevision::Exactly(me.revision), {e}),
        [&, i, done](absl::StatusOr<Appended> r) {
          Writer& me = w[i];
          if (!r.ok()) failed = true;
          ++me.revision;
          {
            std::lock_guard<std::mutex> lock(mu);
            latencies.push_back(absl::ToDoubleMicroseconds(absl::Now() - me.submitted));
          }
          if (--me.left > 0 && r.ok()) return next(i, done);
          done->DecrementCount();
        });
  };
  {  // setup: every game created
    absl::BlockingCounter created(writers);
    for (int i = 0; i < writers; ++i) {
      w[i].game = absl::StrCat("w", i);
      w[i].left = 1;
      next(i, &created);
    }
    created.Wait();
    latencies.clear();
  }
  int64_t items = 0;
  double seconds = 0;
  for (auto _ : state) {
    absl::BlockingCounter done(writers);
    absl::Time start = absl::Now();
    for (int i = 0; i < writers; ++i) {
      w[i].left = PerWriter(writers);
      next(i, &done);
    }
    done.Wait();
    double s = absl::ToDoubleSeconds(absl::Now() - start);
    state.SetIterationTime(s);
    seconds += s;
    items += static_cast<int64_t>(writers) * PerWriter(writers);
  }
  if (failed) return state.SkipWithError("an append failed");
  Report(state, "async", writers, latencies, items, seconds);
}

void Check(const absl::Status& s) {
  if (!s.ok()) {
    std::fprintf(stderr, "%s\n", s.ToString().c_str());
    std::abort();
  }
}

// The baselines: one connection, one thread, `batch` rows per transaction,
// durable at each COMMIT, no group commit. Each batch holds one row for
// each of `batch` games, as the ledger's batches do at that concurrency.
//  - kLedgerRows: the rows the ledger writes for these appends (canonical
//    event, idempotency key, Merkle leaf hash) into the ledger's own tables
//    and indexes (PrepareSchema). What the ledger adds on top of this is
//    the cost of group commit and of the checks: the queue and hand-offs,
//    the idempotency and revision checks, savepoints, the judge, the Merkle
//    edge. This is the rate the target is measured against.
//  - kBareTable: only the event bytes, into a table with no index but its
//    primary key. The gap to the ledger here is mostly the two per-game
//    indexes (stream revision, idempotency key): every commit rewrites one
//    page of each for every game in the batch.
enum class Baseline { kLedgerRows, kBareTable };

void PlainSqliteBatched(benchmark::State& state, Baseline baseline) {
  const int batch = static_cast<int>(state.range(0));
  TempDir dir("ledger-bench", BenchDisk());
  absl::StatusOr<Db> opened =
      Db::Open(dir.path() + "/plain.db", SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
  if (!opened.ok()) return state.SkipWithError(std::string(opened.status().message()).c_str());
  Db db = *std::move(opened);
  const char* insert_sql = nullptr;
  if (baseline == Baseline::kLedgerRows) {
    if (absl::Status s = PrepareSchema(db); !s.ok()) {
      return state.SkipWithError(std::string(s.message()).c_str());
    }
    insert_sql =
        "INSERT INTO events(position, game_id, revision, idempotency_key, event, leaf_hash) "
        "VALUES(?, ?, ?, ?, ?, ?)";
  } else {
    Check(
        db.Exec("PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;"
                "CREATE TABLE events(position INTEGER PRIMARY KEY, game_id TEXT, "
                "revision INTEGER, event BLOB)"));
    insert_sql = "INSERT INTO events(position, game_id, revision, event) VALUES(?, ?, ?, ?)";
  }
  absl::StatusOr<Stmt> prepared = Stmt::Prepare(db, insert_sql);
  Check(prepared.status());
  Stmt& ins = *prepared;
  std::vector<double> latencies;
  std::vector<int64_t> revisions(batch, 0);
  int64_t items = 0, position = 0;
  double seconds = 0;
  const int per_iteration = batch * PerWriter(batch);
  for (auto _ : state) {
    absl::Time start = absl::Now();
    for (int done = 0; done < per_iteration; done += batch) {
      absl::Time t0 = absl::Now();
      Check(db.Exec("BEGIN"));
      for (int i = 0; i < batch; ++i) {
        std::string game = absl::StrCat("w", i);
        const int64_t revision = ++revisions[i];
        v1::Event event = Payload(game, revision);
        std::string bytes = CanonicalBytes(event);
        ins.Bind(1, ++position).Bind(2, game).Bind(3, revision);
        if (baseline == Baseline::kLedgerRows) {
          ins.Bind(4, event.idempotency_key()).BindBlob(5, bytes);
          ins.BindBlob(6, AsBytes(LeafHash(bytes)));
        } else {
          ins.BindBlob(4, bytes);
        }
        Check(ins.Run());
      }
      Check(db.Exec("COMMIT"));
      double us = absl::ToDoubleMicroseconds(absl::Now() - t0);
      latencies.insert(latencies.end(), batch, us);  // every row waits for its COMMIT
    }
    double s = absl::ToDoubleSeconds(absl::Now() - start);
    state.SetIterationTime(s);
    seconds += s;
    items += per_iteration;
  }
  Report(state, baseline == Baseline::kLedgerRows ? "plain" : "bare", batch, latencies, items,
         seconds);
}

void BM_PlainSqliteBatched(benchmark::State& state) {
  PlainSqliteBatched(state, Baseline::kLedgerRows);
}
void BM_PlainSqliteBareTable(benchmark::State& state) {
  PlainSqliteBatched(state, Baseline::kBareTable);
}

// Interleaved by concurrency, so that the ledger and the plain loop it is
// compared with run back to back on the same disk weather.
const int kRegistered = [] {
  struct Contender {
    const char* name;
    void (*run)(benchmark::State&);
    const char* arg;
  };
  const Contender contenders[] = {
      {"BM_LedgerGroupCommit", BM_LedgerGroupCommit, "writers"},
      {"BM_LedgerGroupCommitAsync", BM_LedgerGroupCommitAsync, "writers"},
      {"BM_PlainSqliteBatched", BM_PlainSqliteBatched, "batch"},
      {"BM_PlainSqliteBareTable", BM_PlainSqliteBareTable, "batch"},
  };
  for (int n : {1, 16, 256}) {
    for (const Contender& c : contenders) {
      benchmark::RegisterBenchmark(c.name, c.run)
          ->ArgName(c.arg)
          ->Arg(n)
          ->Iterations(Iterations(n))
          ->UseManualTime()
          ->Unit(benchmark::kMillisecond);
    }
  }
  return 0;
}();

// Inclusion proofs as an auditor fetches them (GetInclusionProof): every
// event of one 250-event game against a checkpoint of a 25,000-event log.
// The ledger keeps a proof tree that it grows by the leaves it has not read
// (merkle.h's MerkleTree), so only the first proof reads the log; the
// counter `first_proof_ms` is that cold one.
void BM_ProveGameInclusion(benchmark::State& state) {
  constexpr int kGames = 100;
  constexpr int kPerGame = 250;
  BenchLedger bench;
  auto& ledger = bench.ledger;
  if (!ledger.ok()) return state.SkipWithError(std::string(ledger.status().message()).c_str());
  for (int g = 0; g < kGames; ++g) {
    const std::string game = absl::StrCat("g", g);
    std::vector<v1::Event> events;
    events.emplace_back().mutable_game_created()->set_game_id(game);
    for (int i = 1; i < kPerGame; ++i) events.push_back(Payload(game, i));
    if (!(*ledger)
             ->AppendAndWait(
                 AppendRequest::Game(game, ExpectedRevision::NoStream(), std::move(events)))
             .ok()) {
      return state.SkipWithError("setup append failed");
    }
  }
  auto checkpoint = (*ledger)->Checkpoint();
  if (!checkpoint.ok()) return state.SkipWithError("no checkpoint");
  const uint64_t size = checkpoint->tree_size();
  const absl::Time cold = absl::Now();
  if (!(*ledger)->proofs().ProveInclusion(1, size).ok()) return state.SkipWithError("proof failed");
  state.counters["first_proof_ms"] = absl::ToDoubleMilliseconds(absl::Now() - cold);
  for (auto _ : state) {
    for (uint64_t p = size - kPerGame + 1; p <= size; ++p) {
      benchmark::DoNotOptimize((*ledger)->proofs().ProveInclusion(p, size));
    }
  }
  state.counters["proofs_per_s"] =
      benchmark::Counter(kPerGame, benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_ProveGameInclusion)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace arbiter::ledger

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  using arbiter::ledger::Results;
  std::printf("\n%-12s %-8s %10s %8s %8s | %12s %8s %8s %6s | %10s %6s\n", "ledger", "writers",
              "appends/s", "p50_us", "p99_us", "plain rows/s", "p50_us", "p99_us", "ratio",
              "bare rows/s", "ratio");
  for (const char* kind : {"ledger", "async"}) {
    for (int n : {1, 16, 256}) {
      auto l = Results().find({kind, n});
      auto p = Results().find({"plain", n});
      auto b = Results().find({"bare", n});
      if (l == Results().end() || p == Results().end() || b == Results().end()) continue;
      std::printf("%-12s %-8d %10.0f %8.0f %8.0f | %12.0f %8.0f %8.0f %5.0f%% | %10.0f %5.0f%%\n",
                  std::string(kind) == "ledger" ? "Append" : "AppendAsync", n, l->second.rate,
                  l->second.p50_us, l->second.p99_us, p->second.rate, p->second.p50_us,
                  p->second.p99_us, 100 * l->second.rate / p->second.rate, b->second.rate,
                  100 * l->second.rate / b->second.rate);
    }
  }
}
