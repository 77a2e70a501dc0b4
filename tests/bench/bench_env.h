// What a load benchmark run as a process takes from its environment: its
// sizes from environment variables, and as many open files as it may have
// (thousands of viewers or watchers are thousands of sockets).
#ifndef ARBITER_TESTS_BENCH_BENCH_ENV_H_
#define ARBITER_TESTS_BENCH_BENCH_ENV_H_

#include <sys/resource.h>

#include <cstdlib>

#include "absl/strings/numbers.h"

namespace arbiter::bench {

// The integer in environment variable `name`, or `fallback` when it is
// unset or not an integer.
inline int EnvInt(const char* name, int fallback) {
  const char* v = std::getenv(name);
  int n = 0;
  return v != nullptr && absl::SimpleAtoi(v, &n) ? n : fallback;
}

// Raises this process's soft open-file limit to its hard limit.
inline void RaiseFileLimit() {
  rlimit r{};
  if (getrlimit(RLIMIT_NOFILE, &r) == 0 && r.rlim_cur < r.rlim_max) {
    r.rlim_cur = r.rlim_max;
    setrlimit(RLIMIT_NOFILE, &r);
  }
}

}  // namespace arbiter::bench

#endif  // ARBITER_TESTS_BENCH_BENCH_ENV_H_
