// FUZZ_CHECK(cond, what): a broken promise found by a fuzz target. Prints
// what and aborts, which libFuzzer reports as a crash with its input, and
// which fails fuzz_replay_test.
#ifndef ARBITER_TESTS_FUZZ_FUZZ_CHECK_H_
#define ARBITER_TESTS_FUZZ_FUZZ_CHECK_H_

#include <cstdio>
#include <cstdlib>
#include <string>

#define FUZZ_CHECK(cond, what)                                                              \
  do {                                                                                      \
    if (!(cond)) {                                                                          \
      std::fprintf(stderr, "%s:%d: FUZZ_CHECK(%s) failed: %s\n", __FILE__, __LINE__, #cond, \
                   std::string(what).c_str());                                              \
      std::abort();                                                                         \
    }                                                                                       \
  } while (0)

#endif  // ARBITER_TESTS_FUZZ_FUZZ_CHECK_H_
