#include "tests/support/event_lines.h"

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "google/protobuf/util/json_util.h"
#include "tests/support/files.h"

namespace arbiter::testing {

absl::StatusOr<std::vector<v1::Event>> ReadEventLines(const std::string& path) {
  std::vector<v1::Event> events;
  int number = 0;
  for (absl::string_view line : absl::StrSplit(ReadFile(path), '\n')) {
    ++number;
    if (absl::StripAsciiWhitespace(line).empty()) continue;
    v1::Event& event = events.emplace_back();
    const auto parsed = google::protobuf::util::JsonStringToMessage(
        google::protobuf::StringPiece(line.data(), line.size()), &event);
    if (!parsed.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat(path, ":", number, ": ", parsed.message().as_string()));
    }
  }
  return events;
}

}  // namespace arbiter::testing
