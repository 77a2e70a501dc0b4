// The fuzzed entry points, shared by the libFuzzer binaries (clang,
// ARBITER_FUZZ=ON) and by fuzz_replay_test, which feeds every input in
// tests/fuzz/corpus/<target>/ and tests/fuzz/regressions/<target>/ through
// the same functions in every build.
//
// Each takes arbitrary bytes and must return normally. Beyond "no crash,
// no sanitizer report" each checks a promise of the code under test and
// aborts (FUZZ_CHECK) when it is broken, so the fuzzer reports it:
//   event_json  a decoded event re-encodes to an equal event, and a refused
//               event leaves the fold exactly as it was;
//   sgf         a parsed record's events (SgfToEvents) are all accepted by
//               the adjudicator, as `import-sgf | adjudicate` promises;
//   fold        structured 9x9 event streams (moves, presses, incidents,
//               decisions): refused events change nothing, and replaying
//               the accepted events gives the same rulings and state;
//   bundle      an audit bundle (binary AuditBundle) is verified without
//               crashing; an intact verdict covers every entry.
#ifndef ARBITER_TESTS_FUZZ_FUZZ_TARGETS_H_
#define ARBITER_TESTS_FUZZ_FUZZ_TARGETS_H_

#include <cstddef>
#include <cstdint>

namespace arbiter::fuzz {

void EventJson(const uint8_t* data, size_t size);
void Sgf(const uint8_t* data, size_t size);
void Fold(const uint8_t* data, size_t size);
void Bundle(const uint8_t* data, size_t size);

}  // namespace arbiter::fuzz

#endif  // ARBITER_TESTS_FUZZ_FUZZ_TARGETS_H_
