// Fuzz target event_json: lines of JSON as a client sends them (DOMAIN.md
// §3), decoded strictly into arbiter.v1.Event and folded.
#include <string>
#include <string_view>

#include "arbiter/v1/events.pb.h"
#include "google/protobuf/util/json_util.h"
#include "google/protobuf/util/message_differencer.h"
#include "tests/fuzz/checked_fold.h"
#include "tests/fuzz/fuzz_check.h"
#include "tests/fuzz/fuzz_targets.h"

namespace arbiter::fuzz {

void EventJson(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  google::protobuf::util::JsonParseOptions strict;
  strict.ignore_unknown_fields = false;  // as `adjudicate` and the service
  CheckedFold fold;
  bool open = false;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string line(text.substr(start, end - start));
    start = end + 1;

    v1::Event event;
    if (!google::protobuf::util::JsonStringToMessage(line, &event, strict).ok()) continue;
    // What was decoded encodes again, to the same event.
    std::string json;
    const auto printed = google::protobuf::util::MessageToJsonString(event, &json);
    FUZZ_CHECK(printed.ok(), printed.ToString());
    v1::Event again;
    const auto reparsed = google::protobuf::util::JsonStringToMessage(json, &again, strict);
    FUZZ_CHECK(reparsed.ok(), reparsed.ToString() + "\njson: " + json);
    FUZZ_CHECK(google::protobuf::util::MessageDifferencer::Equals(event, again),
               "JSON round trip changed the event: " + json);

    if (!open) {
      if (!event.has_game_created()) continue;  // refused: the first event creates the game
      if (!fold.Open(event.game_created())) continue;
      open = true;
    }
    fold.Apply(event);
  }
  if (open) fold.CheckReplay();
}

}  // namespace arbiter::fuzz
