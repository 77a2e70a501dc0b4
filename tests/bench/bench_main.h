// The main of a benchmark whose failures are counted, not timed: as
// BENCHMARK_MAIN, then exit 1 when any failed, so that its smoke run in
// ctest fails rather than report a rate of failures.
#ifndef ARBITER_TESTS_BENCH_BENCH_MAIN_H_
#define ARBITER_TESTS_BENCH_BENCH_MAIN_H_

#include <atomic>
#include <cstdio>

#include "benchmark/benchmark.h"

namespace arbiter::bench {

// Runs the benchmarks the command line selects; 1 when `failed` counts any
// failure (said on stderr as "N <what> failed"), else 0.
inline int RunCountingFailures(int argc, char** argv, const std::atomic<int>& failed,
                               const char* what) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  if (const int n = failed.load(); n > 0) {
    std::fprintf(stderr, "%d %s failed\n", n, what);
    return 1;
  }
  return 0;
}

}  // namespace arbiter::bench

#endif  // ARBITER_TESTS_BENCH_BENCH_MAIN_H_
