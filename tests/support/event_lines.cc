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

std::string ClockFailureGame(const std::string& id, const std::string& black) {
  return absl::StrCat(
      R"({"at": "2026-06-02T09:00:00Z", "gameCreated": {"gameId": ")", id,
      R"(", "ruleset": "cn-2002", "boardSize": 19, "black": {"name": ")", black,
      R"(", "rank": "6d"}, "white": {"name": "Zhou Rui", "rank": "6d"}, "venue": "SAME_SITE", )",
      R"("scheduledStart": "2026-06-02T09:00:00Z", "timeControl": {"mainTime": "3600s"}}})", "\n",
      R"({"at": "2026-06-02T09:00:00Z", "gameStarted": {}})", "\n",
      R"({"at": "2026-06-02T09:00:10Z", "move": {"color": "BLACK", "point": "Q16"}})", "\n",
      R"({"at": "2026-06-02T09:00:20Z", "clockMalfunction": {"errorPerHour": "30s", )",
      R"("blackUsed": "10s", "whiteUsed": "10s"}})", "\n");
}

}  // namespace arbiter::testing
