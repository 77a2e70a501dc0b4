// Event lines (DOMAIN.md §3: one proto3 JSON Event per line), read and
// written many at a time.
//
// protobuf's JSON parser and printer resolve the message's types afresh on
// every call, which costs far more than one short line: parsing or printing
// a few hundred events as one array in one call is about five times faster.
// The result is the same as one call per line. Reading, a line joins a batch
// only if it is exactly one JSON object (a string-aware bracket scan), so
// each array element is one whole line, and when a batch fails its lines are
// parsed one by one, so each bad line gets the error and the line number it
// gets alone. Writing, the printed array is cut at its elements, each of
// which the printer renders as it renders the event alone.
#ifndef ARBITER_CLI_EVENT_LINES_H_
#define ARBITER_CLI_EVENT_LINES_H_

#include <cstddef>
#include <deque>
#include <istream>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "arbiter/v1/events.pb.h"

namespace arbiter::cli {

class EventLineReader {
 public:
  // Reads `in`, which must outlive the reader, `batch` lines at a time
  // (1: each line is judged as soon as it arrives, for a live pipe).
  // Unknown fields and kinds are errors, as everywhere on input.
  explicit EventLineReader(std::istream& in, size_t batch = kDefaultBatch)
      : in_(in), batch_(batch) {}

  // The next non-blank line: its 1-based number in the input and its event,
  // or INVALID_ARGUMENT with the parser's message (JsonErrorInLine); with
  // `text`, the line as read. False at the end.
  bool Next(int* line_number, absl::StatusOr<v1::Event>* event, std::string* text = nullptr);

  // True when reading failed (not merely ended).
  bool failed() const { return in_.bad(); }

 private:
  void ReadBatch();

  // Lines parsed in one call: enough to spread the per-call cost thin. A
  // reader of a slow pipe waits for this many lines (or the end) before the
  // events among them are judged, which suits files and collections.
  static constexpr size_t kDefaultBatch = 256;

  struct Parsed {
    int number;
    std::string text;
    absl::StatusOr<v1::Event> event;
  };

  std::istream& in_;
  const size_t batch_;
  int number_ = 0;  // lines read so far
  std::deque<Parsed> parsed_;
};

// The events as lines, each one compact JSON object and a newline.
// INTERNAL if the printer fails.
absl::StatusOr<std::string> EventLines(const std::vector<v1::Event>& events);

// The JSON parser's `message` about `line` as one line: its reason with the
// column of the fault ("Expected , or } after key:value pair at column 31"),
// instead of protobuf's three lines (the reason, a piece of the line and a
// caret under the fault). Any other message is returned as it is.
std::string JsonErrorInLine(absl::string_view line, absl::string_view message);

// True when `line` is exactly one JSON object, surrounding whitespace aside:
// the brace that opens it closes at its end, strings and escapes respected.
// Whether the object is well-formed is the parser's to say.
bool IsOneJsonObject(const std::string& line);

}  // namespace arbiter::cli

#endif  // ARBITER_CLI_EVENT_LINES_H_
