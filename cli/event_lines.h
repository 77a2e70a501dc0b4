// Reading event lines (DOMAIN.md §3: one proto3 JSON Event per line), as
// `arbiter adjudicate` does, many at a time.
//
// protobuf's JsonStringToMessage resolves the message's types afresh on
// every call, which costs far more than parsing one short line: parsing a
// few hundred lines as one array in one call is about five times faster.
// The result is the same as parsing each line alone: a line joins a batch
// only if it is exactly one JSON object (a string-aware bracket scan), so
// each array element is one whole line; and when a batch fails, its lines
// are parsed one by one, so each bad line gets the error and the line
// number it gets alone.
#ifndef ARBITER_CLI_EVENT_LINES_H_
#define ARBITER_CLI_EVENT_LINES_H_

#include <deque>
#include <istream>
#include <string>
#include <utility>

#include "absl/status/statusor.h"
#include "arbiter/v1/events.pb.h"

namespace arbiter::cli {

class EventLineReader {
 public:
  // Reads `in`, which must outlive the reader. Unknown fields and kinds are
  // errors, as everywhere on input.
  explicit EventLineReader(std::istream& in) : in_(in) {}

  // The next non-blank line: its 1-based number in the input and its event,
  // or INVALID_ARGUMENT with the parser's message. False at the end.
  bool Next(int* line_number, absl::StatusOr<v1::Event>* event);

  // True when reading failed (not merely ended).
  bool failed() const { return in_.bad(); }

 private:
  void ReadBatch();

  std::istream& in_;
  int number_ = 0;  // lines read so far
  std::deque<std::pair<int, absl::StatusOr<v1::Event>>> parsed_;
};

// True when `line` is exactly one JSON object, surrounding whitespace aside:
// the brace that opens it closes at its end, strings and escapes respected.
// Whether the object is well-formed is the parser's to say.
bool IsOneJsonObject(const std::string& line);

}  // namespace arbiter::cli

#endif  // ARBITER_CLI_EVENT_LINES_H_
