// Durable appends per second of the ledger on PostgreSQL, with one and with
// two writing "servers" (two Ledger instances on one database, each with its
// own connection and writer, contending for the sequencer's lease as two
// `arbiter serve` processes would), against the SQLite ledger at the same
// concurrency, in the same run on the same machine. PostgreSQL runs on a
// throwaway cluster (tests/support/pg_cluster.h) with synchronous_commit=on
// and fsync=on, on the temp directory's disk, as SQLite's file does.
//
// Run: build/bin/pg_ledger_bench
#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "benchmark/benchmark.h"
#include "ledger/ledger.h"
#include "tests/ledger/toy_judge.h"
#include "tests/support/pg_cluster.h"
#include "tests/support/temp_dir.h"

namespace arbiter::ledger {
namespace {

using ::arbiter::testing::SharedPgCluster;
using ::arbiter::testing::TempDir;

constexpr int kWriters = 16;    // concurrent appenders, one game each
constexpr int kPerWriter = 64;  // appends each, per iteration

// range(0): 0 the SQLite ledger; 1 or 2 ledgers on one PostgreSQL database.
void BM_DurableAppends(benchmark::State& state) {
  const int servers = static_cast<int>(state.range(0));
  TempDir dir("pg-ledger-bench");
  testing::ToyJudge judge;
  judge.keep = true;
  std::string uri;
  if (servers > 0) {
    absl::StatusOr<std::string> made = SharedPgCluster().NewDatabase();
    if (!made.ok()) return state.SkipWithError(std::string(made.status().message()).c_str());
    uri = *made;
  }
  std::vector<std::unique_ptr<Ledger>> ledgers;
  for (int i = 0; i < std::max(servers, 1); ++i) {
    LedgerOptions o;
    o.dir = servers > 0 ? uri : dir.path();
    o.key_dir = dir.path();
    o.judge = &judge;
    absl::StatusOr<std::unique_ptr<Ledger>> l = Ledger::Open(o);
    if (!l.ok()) return state.SkipWithError(std::string(l.status().message()).c_str());
    ledgers.push_back(*std::move(l));
  }
  int round = 0;
  std::atomic<int> failures{0};
  for (auto _ : state) {
    ++round;
    std::vector<std::thread> writers;
    for (int w = 0; w < kWriters; ++w) {
      writers.emplace_back([&, w] {
        Ledger& ledger = *ledgers[w % ledgers.size()];
        const std::string game = absl::StrCat("r", round, "-w", w);
        if (!ledger
                 .AppendAndWait(AppendRequest::Game(game, ExpectedRevision::NoStream(),
                                                    {testing::Created(game)}))
                 .ok()) {
          ++failures;
        }
        for (int i = 1; i < kPerWriter; ++i) {
          v1::Event e = testing::Pass(i % 2 ? v1::WHITE : v1::BLACK, absl::StrCat(game, "/", i));
          if (!ledger.AppendAndWait(AppendRequest::Game(game, ExpectedRevision::Exactly(i), {e}))
                   .ok())
            ++failures;
        }
      });
    }
    for (std::thread& t : writers) t.join();
  }
  if (failures.load() > 0) state.SkipWithError("an append failed");
  state.SetItemsProcessed(state.iterations() * kWriters * kPerWriter);
  state.SetLabel(servers == 0 ? "sqlite" : absl::StrCat("postgresql, ", servers, " server(s)"));
}
BENCHMARK(BM_DurableAppends)
    ->Arg(0)
    ->Arg(1)
    ->Arg(2)
    ->Iterations(3)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace arbiter::ledger

BENCHMARK_MAIN();
