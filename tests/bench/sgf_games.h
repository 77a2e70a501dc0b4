// The games the benchmarks record: every real game of tests/data/sgf that
// reads, as the events an arbiter would have reported (sgf_events.h).
#ifndef ARBITER_TESTS_BENCH_SGF_GAMES_H_
#define ARBITER_TESTS_BENCH_SGF_GAMES_H_

#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/civil_time.h"
#include "adjudicator/engine/sgf.h"
#include "adjudicator/engine/sgf_events.h"
#include "arbiter/v1/events.pb.h"
#include "tests/support/files.h"
#include "tests/support/paths.h"

namespace arbiter::bench {

// Each game of more than its creation, game id "bench", played on
// 2026-05-01; a file that does not parse is left out (empty when none does).
inline std::vector<std::vector<v1::Event>> SgfGames() {
  std::vector<std::vector<v1::Event>> games;
  for (const auto& file : testing::FilesIn(testing::TestDataPath("sgf"), ".sgf")) {
    absl::StatusOr<SgfGame> sgf = ParseSgf(testing::ReadFile(file.string()));
    if (!sgf.ok()) continue;
    absl::StatusOr<std::vector<v1::Event>> events =
        SgfToEvents(*sgf, "bench", absl::CivilDay(2026, 5, 1));
    if (events.ok() && events->size() > 1) games.push_back(*std::move(events));
  }
  return games;
}

}  // namespace arbiter::bench

#endif  // ARBITER_TESTS_BENCH_SGF_GAMES_H_
