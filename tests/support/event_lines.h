// Games written as JSON lines (DOMAIN.md §3: one arbiter.v1.Event per line
// in the proto3 JSON mapping), as tests/data/scenarios holds them.
#ifndef ARBITER_TESTS_SUPPORT_EVENT_LINES_H_
#define ARBITER_TESTS_SUPPORT_EVENT_LINES_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "arbiter/v1/events.pb.h"

namespace arbiter::testing {

// The events of the file at `path`, blank lines skipped. INVALID_ARGUMENT
// naming path:line when a line is not an Event (unknown fields included);
// an unreadable file aborts (files.h).
absl::StatusOr<std::vector<v1::Event>> ReadEventLines(const std::string& path);

// A game of four events whose clock fails in absolute time: ruling 1
// (12.4.6, left to the chief arbiter) on its 4th event. Black is named
// `black` (6d), White Zhou Rui (6d).
std::string ClockFailureGame(const std::string& id, const std::string& black = "Li Wei");

}  // namespace arbiter::testing

#endif  // ARBITER_TESTS_SUPPORT_EVENT_LINES_H_
