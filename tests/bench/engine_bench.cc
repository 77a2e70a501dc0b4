// Adjudicator speed: events folded per second over the 30 shared real games
// as event streams (DOMAIN.md §3), each game folded from a fresh
// Adjudicator, with the events parsed beforehand (JSON parsing is not the
// engine's cost). Three streams: ordinary moves (the ≥ 1M events/s target),
// moves each followed by a clock press, and moves with incidents (a phone
// ring, a takeback, and a pending disturbance ruling every ten
// moves) ending with two passes and the count.
#include <algorithm>
#include <string>
#include <vector>

#include "adjudicator/engine/adjudicator.h"
#include "benchmark/benchmark.h"
#include "rulesdb/rules.h"
#include "tests/engine/sgf_events.h"
#include "tests/support/files.h"
#include "tests/support/paths.h"

namespace arbiter {
namespace {

enum class Stream { kMoves, kMovesAndPresses, kIncidents };

std::vector<std::vector<v1::Event>> Games(Stream stream) {
  std::vector<std::vector<v1::Event>> games;
  for (const auto& file : testing::FilesIn(testing::TestDataPath("sgf"), ".sgf")) {
    absl::StatusOr<SgfGame> sgf = ParseSgf(testing::ReadFile(file.string()));
    if (!sgf.ok()) continue;
    std::vector<v1::Event> events =
        testing::GameEvents(*sgf, stream == Stream::kIncidents, stream == Stream::kIncidents,
                            stream == Stream::kMovesAndPresses);
    if (stream == Stream::kIncidents) {
      std::vector<v1::Event> with;
      for (size_t i = 0; i < events.size(); ++i) {
        with.push_back(events[i]);
        if (i > 2 && i % 10 == 0 && events[i].has_move()) {
          v1::Event d = events[i];
          d.mutable_misconduct()->set_color(Opponent(events[i].move().color()));
          d.mutable_misconduct()->set_kind(v1::Misconduct::DISTURBANCE);
          with.push_back(d);
        }
      }
      events = std::move(with);
    }
    games.push_back(std::move(events));
  }
  return games;
}

void Fold(benchmark::State& state, Stream stream) {
  const std::vector<std::vector<v1::Event>> games = Games(stream);
  const absl::StatusOr<Rules> rules = LoadRules("cn-2002");
  if (!rules.ok() || games.empty()) {
    state.SkipWithError("no rules or no games");
    return;
  }
  int64_t events = 0;
  for (const auto& g : games) events += static_cast<int64_t>(g.size());
  int64_t rulings = 0;
  for (auto _ : state) {
    for (const auto& game : games) {
      Adjudicator a = *Adjudicator::Create(*rules);
      for (const v1::Event& e : game) {
        absl::StatusOr<std::vector<v1::Ruling>> r = a.Apply(e);
        if (!r.ok()) {
          state.SkipWithError(std::string(r.status().message()).c_str());
          return;
        }
      }
      rulings += static_cast<int64_t>(a.rulings().size());
      benchmark::DoNotOptimize(a.result());
    }
  }
  state.SetItemsProcessed(state.iterations() * events);
  state.counters["events_per_s"] = benchmark::Counter(
      static_cast<double>(state.iterations() * events), benchmark::Counter::kIsRate);
  state.counters["rulings_per_pass"] =
      static_cast<double>(rulings) / static_cast<double>(std::max<int64_t>(1, state.iterations()));
}

void BM_OrdinaryMoves(benchmark::State& state) { Fold(state, Stream::kMoves); }
void BM_MovesWithClockPresses(benchmark::State& state) { Fold(state, Stream::kMovesAndPresses); }
void BM_GamesWithIncidents(benchmark::State& state) { Fold(state, Stream::kIncidents); }

BENCHMARK(BM_OrdinaryMoves)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_MovesWithClockPresses)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_GamesWithIncidents)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace arbiter

BENCHMARK_MAIN();
