// `arbiter sync --to postgresql://...` at the ledger level: a venue's SQLite
// ledger of G games of N events each copied into a fresh federation database
// on a throwaway PostgreSQL cluster (tests/support/pg_cluster.h): each game's
// audit bundle exported from the venue, checked (signature, inclusion
// proofs, rulings re-derived) and appended byte for byte, its proof stored
// (ledger/venue_sync.h). Games/s and events/s, as `arbiter sync` does it (one
// pass over the venue's log, ledger/bundle.h BundleExporter) and, for
// comparison, with the venue's log re-read and re-hashed for every game
// (ExportBundle per game: G·N leaf hashes).
//
// Run: build/bin/sync_bench
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "benchmark/benchmark.h"
#include "ledger/bundle.h"
#include "ledger/ledger.h"
#include "ledger/sqlite/log_reader.h"
#include "ledger/venue_proofs.h"
#include "ledger/venue_sync.h"
#include "tests/ledger/toy_judge.h"
#include "tests/support/pg_cluster.h"
#include "tests/support/temp_dir.h"

namespace arbiter::ledger {
namespace {

using ::arbiter::testing::SharedPgCluster;
using ::arbiter::testing::TempDir;

// The venue: `games` games of `events` events (a creation, then passes,
// each pass earning a ruling), one append per game, signed at the end.
absl::Status MakeVenue(const std::string& dir, testing::ToyJudge& judge, int games, int events) {
  LedgerOptions o;
  o.dir = dir;
  o.judge = &judge;
  absl::StatusOr<std::unique_ptr<Ledger>> venue = Ledger::Open(o);
  if (!venue.ok()) return venue.status();
  for (int g = 0; g < games; ++g) {
    const std::string game = absl::StrCat("venue-g", g);
    std::vector<v1::Event> batch = {testing::Created(game)};
    for (int i = 1; i < events; ++i) {
      batch.push_back(testing::Pass(i % 2 ? v1::WHITE : v1::BLACK, absl::StrCat(game, "/", i)));
    }
    absl::StatusOr<std::vector<v1::LedgerEntry>> r = (*venue)->AppendAndWait(
        AppendRequest::Game(game, ExpectedRevision::NoStream(), std::move(batch)));
    if (!r.ok()) return r.status();
  }
  return (*venue)->Checkpoint().status();
}

// range(0) games, range(1) events each; range(2): 0 one pass over the
// venue's log (as `arbiter sync`), 1 a re-read of it per game.
void BM_SyncVenueIntoPostgres(benchmark::State& state) {
  const int games = static_cast<int>(state.range(0));
  const int events = static_cast<int>(state.range(1));
  const bool per_game = state.range(2) == 1;
  TempDir venue_dir("sync-bench-venue");
  TempDir key_dir("sync-bench-federation");
  testing::ToyJudge venue_judge;
  if (absl::Status s = MakeVenue(venue_dir.path(), venue_judge, games, events); !s.ok()) {
    return state.SkipWithError(std::string(s.message()).c_str());
  }
  absl::StatusOr<LogReader> reader = LogReader::Open(venue_dir.File("ledger.db"));
  if (!reader.ok()) return state.SkipWithError(std::string(reader.status().message()).c_str());
  absl::StatusOr<std::vector<GameListing>> listed = reader->ListGames(0, games + 1);
  if (!listed.ok()) return state.SkipWithError(std::string(listed.status().message()).c_str());

  uint64_t failures = 0;
  for (auto _ : state) {
    // A fresh federation each round, made outside the timing.
    state.PauseTiming();
    absl::StatusOr<std::string> uri = SharedPgCluster().NewDatabase();
    if (!uri.ok()) return state.SkipWithError(std::string(uri.status().message()).c_str());
    testing::ToyJudge judge;
    judge.keep = true;
    LedgerOptions o;
    o.dir = *uri;
    o.key_dir = key_dir.path();
    o.judge = &judge;
    absl::StatusOr<std::unique_ptr<Ledger>> federation = Ledger::Open(o);
    if (!federation.ok()) {
      return state.SkipWithError(std::string(federation.status().message()).c_str());
    }
    absl::StatusOr<std::unique_ptr<VenueProofs>> proofs = VenueProofs::Open(*uri);
    if (!proofs.ok()) return state.SkipWithError(std::string(proofs.status().message()).c_str());
    testing::ToyJudge audit_judge;
    VenueSyncOptions options;
    options.judge = &audit_judge;
    state.ResumeTiming();

    BundleExporter exporter(*reader);
    for (const GameListing& g : *listed) {
      absl::StatusOr<v1::AuditBundle> bundle =
          per_game ? ExportBundle(*reader, g.game_id) : exporter.Export(g.game_id);
      if (!bundle.ok()) {
        ++failures;
        continue;
      }
      absl::StatusOr<VenueSyncResult> r =
          SyncVenueGame(*std::move(bundle), **federation, **proofs, options);
      if (!r.ok() || r->appended != static_cast<uint64_t>(events)) ++failures;
    }
    state.PauseTiming();
    federation->reset();
    state.ResumeTiming();
  }
  if (failures > 0) state.SkipWithError("a game did not sync");
  state.counters["games/s"] = benchmark::Counter(static_cast<double>(state.iterations()) * games,
                                                 benchmark::Counter::kIsRate);
  state.counters["events/s"] = benchmark::Counter(
      static_cast<double>(state.iterations()) * games * events, benchmark::Counter::kIsRate);
  state.SetLabel(per_game ? "venue log re-read per game" : "one pass over the venue log");
}
BENCHMARK(BM_SyncVenueIntoPostgres)
    ->Args({20, 10, 0})
    ->Args({200, 50, 0})
    ->Args({200, 50, 1})
    ->Args({50, 200, 0})
    ->Iterations(2)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace arbiter::ledger

BENCHMARK_MAIN();
