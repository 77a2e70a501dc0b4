// Board speed: nanoseconds per move for legality (occupied, suicide,
// repetition by situation hash) plus play, over every shared SGF game, and
// the replay of one whole game. The SGF files are read and parsed once,
// outside the timed loops; a fresh Board per game is part of the cost.
#include <algorithm>
#include <string>
#include <vector>

#include "adjudicator/engine/board.h"
#include "adjudicator/engine/sgf.h"
#include "benchmark/benchmark.h"
#include "tests/support/files.h"
#include "tests/support/paths.h"

namespace arbiter {
namespace {

const std::vector<SgfGame>& SharedGames() {
  static const std::vector<SgfGame>* games = [] {
    auto* out = new std::vector<SgfGame>;
    for (const auto& file : testing::FilesIn(testing::TestDataPath("sgf"), ".sgf")) {
      absl::StatusOr<SgfGame> game = ParseSgf(testing::ReadFile(file.string()));
      if (game.ok()) out->push_back(*std::move(game));
    }
    return out;
  }();
  return *games;
}

// Replays one game; returns the number of moves and passes, or -1 if a move
// was not legal (which would make the measurement meaningless).
int Replay(const SgfGame& game) {
  Board board(game.board_size);
  for (const int v : game.setup_black) board.Place(v1::BLACK, v);
  for (const int v : game.setup_white) board.Place(v1::WHITE, v);
  for (const SgfMove& move : game.moves) {
    if (!move.vertex.has_value()) {
      board.Pass(move.color);
      continue;
    }
    if (board.Check(move.color, *move.vertex) != Legality::kLegal) return -1;
    board.Play(move.color, *move.vertex);
  }
  benchmark::DoNotOptimize(board.hash());
  return static_cast<int>(game.moves.size());
}

void SetPerMoveCounter(benchmark::State& state, int moves_per_iteration) {
  state.SetItemsProcessed(state.iterations() * moves_per_iteration);
  state.counters["per_move"] =
      benchmark::Counter(moves_per_iteration, benchmark::Counter::kIsIterationInvariantRate |
                                                  benchmark::Counter::kInvert);
}

// All 30 shared games, one after another.
void BM_CheckAndPlayAllSharedGames(benchmark::State& state) {
  const std::vector<SgfGame>& games = SharedGames();
  if (games.size() != 30) {
    state.SkipWithError("expected the 30 shared SGF games");
    return;
  }
  int moves = 0;
  for (auto _ : state) {
    moves = 0;
    for (const SgfGame& game : games) {
      const int n = Replay(game);
      if (n < 0) {
        state.SkipWithError("illegal move in a shared game");
        return;
      }
      moves += n;
    }
  }
  state.counters["games"] = static_cast<double>(games.size());
  SetPerMoveCounter(state, moves);
}
BENCHMARK(BM_CheckAndPlayAllSharedGames);

// The longest shared game, replayed from an empty board.
void BM_FullGameReplay(benchmark::State& state) {
  const std::vector<SgfGame>& games = SharedGames();
  if (games.empty()) {
    state.SkipWithError("no shared SGF games");
    return;
  }
  const SgfGame& longest = *std::max_element(
      games.begin(), games.end(),
      [](const SgfGame& a, const SgfGame& b) { return a.moves.size() < b.moves.size(); });
  int moves = 0;
  for (auto _ : state) {
    moves = Replay(longest);
    if (moves < 0) {
      state.SkipWithError("illegal move in the longest shared game");
      return;
    }
  }
  SetPerMoveCounter(state, moves);
}
BENCHMARK(BM_FullGameReplay);

}  // namespace
}  // namespace arbiter

BENCHMARK_MAIN();
