// What the benchmarks that alternate rounds share: how long a round runs
// and how many there are (BENCH_SECONDS, BENCH_ROUNDS, as each benchmark's
// header says), and the median they report of the rounds.
#ifndef ARBITER_TESTS_BENCH_BENCH_ROUNDS_H_
#define ARBITER_TESTS_BENCH_BENCH_ROUNDS_H_

#include <stdlib.h>

#include <algorithm>
#include <vector>

namespace arbiter::bench {

// BENCH_SECONDS (at least 0.1), else `otherwise`.
inline double BenchSeconds(double otherwise) {
  const char* s = getenv("BENCH_SECONDS");
  return s != nullptr ? std::max(0.1, atof(s)) : otherwise;
}

// BENCH_ROUNDS (at least 1), else `otherwise`.
inline int BenchRounds(int otherwise) {
  const char* s = getenv("BENCH_ROUNDS");
  return s != nullptr ? std::max(1, atoi(s)) : otherwise;
}

// The middle value (of an even count, the upper of the two middle ones).
// `v` is not empty.
inline double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace arbiter::bench

#endif  // ARBITER_TESTS_BENCH_BENCH_ROUNDS_H_
