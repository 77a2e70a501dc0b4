#include "cli/event_lines.h"

#include <optional>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "adjudicator/service/field_bounds.h"
#include "arbiter/v1/service.pb.h"
#include "google/protobuf/descriptor.h"
#include "google/protobuf/util/json_util.h"

namespace arbiter::cli {
namespace {

bool IsBlank(const std::string& line) {
  return line.find_first_not_of(" \t\r") == std::string::npos;
}

google::protobuf::util::JsonParseOptions Strict() {
  google::protobuf::util::JsonParseOptions parse;
  parse.ignore_unknown_fields = false;  // an unknown kind or field is bad input
  return parse;
}

absl::StatusOr<v1::Event> ParseOne(const std::string& line) {
  v1::Event event;
  if (const auto s = google::protobuf::util::JsonStringToMessage(line, &event, Strict()); !s.ok()) {
    return absl::InvalidArgumentError(JsonErrorInLine(line, std::string(s.message())));
  }
  // JSON may give an enum as a number, which protobuf keeps whatever it is.
  if (absl::Status s = service::CheckEnums(event, ""); !s.ok()) return s;
  return event;
}

// The end (one past the closing brace) of the JSON object that opens at
// `text[begin]`, or npos. Strings are skipped whole, escapes included;
// protobuf's parser takes ' as well as " around them.
size_t ObjectEnd(absl::string_view text, size_t begin) {
  if (begin >= text.size() || text[begin] != '{') return absl::string_view::npos;
  int depth = 0;
  char quote = 0;  // the open string's quote
  for (size_t i = begin; i < text.size(); ++i) {
    const char c = text[i];
    if (quote != 0) {
      if (c == '\\') {
        ++i;  // an escaped character never ends the string
      } else if (c == quote) {
        quote = 0;
      }
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '{' || c == '[') {
      ++depth;
    } else if ((c == '}' || c == ']') && --depth == 0) {
      return i + 1;
    }
  }
  return absl::string_view::npos;
}

// "game_created.venue" (protobuf's field path) -> "gameCreated.venue" (the
// JSON names the line uses).
std::string JsonPath(absl::string_view path) {
  std::string out;
  bool upper = false;
  for (const char c : path) {
    if (c == '_') {
      upper = true;
      continue;
    }
    out += upper ? absl::ascii_toupper(c) : c;
    upper = false;
  }
  return out;
}

// protobuf's wording of two kinds in one event ("invalid value oneof field
// 'kind' is already set. Cannot set 'pass' for type oneof"), or nullopt.
std::optional<std::string> TwoKinds(absl::string_view why) {
  constexpr absl::string_view kOneof =
      "invalid value oneof field 'kind' is already set. Cannot set '";
  const size_t at = why.find(kOneof);
  if (at == absl::string_view::npos) return std::nullopt;
  absl::string_view second = why.substr(at + kOneof.size());
  second = second.substr(0, second.find('\''));
  return absl::StrCat("an event holds one kind, and this line gives another ('", second,
                      "') besides the first");
}

// protobuf's wording of a name its enum does not hold ("(move.color):
// invalid value \"GREEN\" for type type.googleapis.com/arbiter.v1.Color"),
// or nullopt.
std::optional<std::string> NotAValue(absl::string_view why) {
  constexpr absl::string_view kInvalid = "): invalid value ";
  constexpr absl::string_view kType = " for type type.googleapis.com/";
  const size_t invalid = why.find(kInvalid);
  const size_t type = why.find(kType);
  if (!absl::StartsWith(why, "(") || invalid == absl::string_view::npos ||
      type == absl::string_view::npos || type < invalid) {
    return std::nullopt;
  }
  const google::protobuf::EnumDescriptor* e =
      google::protobuf::DescriptorPool::generated_pool()->FindEnumTypeByName(
          std::string(why.substr(type + kType.size())));
  if (e == nullptr) return std::nullopt;
  const absl::string_view path = why.substr(1, invalid - 1);
  const absl::string_view value =
      why.substr(invalid + kInvalid.size(), type - invalid - kInvalid.size());
  return absl::StrCat(JsonPath(path), ": ", value, " is not a value of ", e->name(), " (",
                      service::ValueNames(*e), ")");
}

// protobuf's wording of a field that does not exist ("teleport: Cannot find
// field." at the top, "(move) colour: Cannot find field." within one), or
// nullopt.
std::optional<std::string> NoSuchField(absl::string_view why) {
  constexpr absl::string_view kNoField = ": Cannot find field.";
  if (!absl::EndsWith(why, kNoField)) return std::nullopt;
  std::string field(why.substr(0, why.size() - kNoField.size()));
  if (const size_t close = field.find(") ");
      absl::StartsWith(field, "(") && close != std::string::npos) {
    field = absl::StrCat(JsonPath(field.substr(1, close - 1)), ".", field.substr(close + 2));
  }
  return absl::StrCat(field,
                      ": no such field here (an unknown event kind or a misspelt field name)");
}

// protobuf's own wording of three faults a hand-written line makes, in the
// line's terms; anything else as protobuf says it.
std::string Plainer(absl::string_view why) {
  for (auto say : {TwoKinds, NotAValue, NoSuchField}) {
    if (std::optional<std::string> plain = say(why)) return *std::move(plain);
  }
  return std::string(why);
}

}  // namespace

std::string JsonErrorInLine(absl::string_view line, absl::string_view message) {
  // protobuf 3's syntax errors: "WHY\nSEGMENT\n   ^", the segment being up
  // to 20 characters either side of the fault and the caret under it.
  const size_t first = message.find('\n');
  const size_t second = first == absl::string_view::npos ? first : message.find('\n', first + 1);
  if (second == absl::string_view::npos) return Plainer(message);
  const absl::string_view why = message.substr(0, first);
  const absl::string_view segment = message.substr(first + 1, second - first - 1);
  const absl::string_view caret = message.substr(second + 1);
  const size_t offset = caret.find('^');
  if (offset == absl::string_view::npos) return std::string(why);
  size_t column = 0;  // 1-based; 0: unknown
  if (segment.empty()) {
    column = line.size() + 1;  // the fault is the line's end
  } else if (const size_t at = line.find(segment); at != absl::string_view::npos) {
    column = at + offset + 1;
  }
  std::string out(why);
  while (!out.empty() && out.back() == '.') out.pop_back();
  if (column > line.size())
    return absl::StrCat(out, " at the end of the line (column ", column, ")");
  return column == 0 ? out : absl::StrCat(out, " at column ", column);
}

bool IsOneJsonObject(const std::string& line) {
  const size_t begin = line.find_first_not_of(" \t\r");
  const size_t end = begin == std::string::npos ? begin : ObjectEnd(line, begin);
  return end != absl::string_view::npos && IsBlank(line.substr(end));
}

absl::StatusOr<std::string> EventLines(const std::vector<v1::Event>& events) {
  v1::AppendEventsRequest all;
  for (const v1::Event& e : events) *all.add_events() = e;
  std::string json;
  if (const auto s = google::protobuf::util::MessageToJsonString(all, &json); !s.ok()) {
    return absl::InternalError(absl::StrCat("cannot render the events: ", s.ToString()));
  }
  // {"events":[{...},{...}]}: one line per element.
  constexpr absl::string_view kOpen = "{\"events\":[";
  const absl::string_view text = json;
  std::string out;
  size_t count = 0;
  bool whole = false;  // the elements end where the array does
  if (!events.empty() && text.substr(0, kOpen.size()) == kOpen) {
    size_t at = kOpen.size();
    for (size_t end; (end = ObjectEnd(text, at)) != absl::string_view::npos; at = end + 1) {
      absl::StrAppend(&out, text.substr(at, end - at), "\n");
      ++count;
      if (text.substr(end) == "]}") whole = true;
      if (text.substr(end, 1) != ",") break;
    }
  }
  if (whole && count == events.size()) return out;
  // Not the shape expected of the printer: one event at a time, as always.
  out.clear();
  for (const v1::Event& event : events) {
    std::string line;
    if (const auto s = google::protobuf::util::MessageToJsonString(event, &line); !s.ok()) {
      return absl::InternalError(absl::StrCat("cannot render an event: ", s.ToString()));
    }
    absl::StrAppend(&out, line, "\n");
  }
  return out;
}

void EventLineReader::ReadBatch() {
  std::vector<std::pair<int, std::string>> lines;
  std::string line;
  while (lines.size() < batch_ && std::getline(in_, line)) {
    ++number_;
    if (!IsBlank(line)) lines.emplace_back(number_, std::move(line));
  }
  // Parsed together as the events of one AppendEventsRequest (the one
  // message that is a list of events), if each line is one object.
  bool together = true;
  std::string batch = "{\"events\":[";
  for (const auto& [n, text] : lines) {
    together = together && IsOneJsonObject(text);
    absl::StrAppend(&batch, n == lines.front().first ? "" : ",", text);
  }
  batch += "]}";
  v1::AppendEventsRequest parsed;
  together = together && !lines.empty() &&
             google::protobuf::util::JsonStringToMessage(batch, &parsed, Strict()).ok() &&
             static_cast<size_t>(parsed.events_size()) == lines.size() &&
             service::CheckEnums(parsed, "").ok();  // else each line says what is wrong
  for (size_t i = 0; i < lines.size(); ++i) {
    absl::StatusOr<v1::Event> event =
        together ? absl::StatusOr<v1::Event>(std::move(*parsed.mutable_events(static_cast<int>(i))))
                 : ParseOne(lines[i].second);
    parsed_.push_back({lines[i].first, std::move(lines[i].second), std::move(event)});
  }
}

bool EventLineReader::Next(int* line_number, absl::StatusOr<v1::Event>* event, std::string* text) {
  if (parsed_.empty()) ReadBatch();
  if (parsed_.empty()) return false;
  Parsed& front = parsed_.front();
  *line_number = front.number;
  *event = std::move(front.event);
  if (text != nullptr) *text = std::move(front.text);
  parsed_.pop_front();
  return true;
}

}  // namespace arbiter::cli
