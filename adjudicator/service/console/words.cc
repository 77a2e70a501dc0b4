#include "adjudicator/service/console/words.h"

#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/time/time.h"
#include "adjudicator/engine/proto_time.h"
#include "adjudicator/service/console/assets.h"
#include "adjudicator/service/console/json.h"
#include "google/protobuf/struct.pb.h"
#include "google/protobuf/util/json_util.h"

namespace arbiter::service::console {
namespace {

using google::protobuf::Struct;
using google::protobuf::Value;

// static/words.json, parsed once. The file is built into the binary and
// checked by the browser tests, so a parse failure leaves an empty table
// (every lookup then falls back to the enum or kind name).
const Struct& Table() {
  static const Struct* table = [] {
    auto* s = new Struct;
    if (const Asset* a = FindAsset("words.json")) {
      (void)google::protobuf::util::JsonStringToMessage(std::string(a->body), s);
    }
    return s;
  }();
  return *table;
}

// The pair table[section][key] in `lang`, or nullptr.
const std::string* Lookup(absl::string_view section, absl::string_view key, Lang lang,
                          int offset = 0) {
  const auto& sections = Table().fields();
  auto s = sections.find(std::string(section));
  if (s == sections.end() || !s->second.has_struct_value()) return nullptr;
  const auto& rows = s->second.struct_value().fields();
  auto r = rows.find(std::string(key));
  if (r == rows.end() || !r->second.has_list_value()) return nullptr;
  const int i = offset + (lang == Lang::kZh ? 0 : 1);
  if (r->second.list_value().values_size() <= i) return nullptr;
  return &r->second.list_value().values(i).string_value();
}

// A top-level pair (table[key]) or a pair inside a list (table[key][index]).
std::string Pair(const Value& v, Lang lang) {
  const int i = lang == Lang::kZh ? 0 : 1;
  if (!v.has_list_value() || v.list_value().values_size() <= i) return "";
  return v.list_value().values(i).string_value();
}

const Value& Top(absl::string_view key) {
  static const Value* none = new Value;
  auto it = Table().fields().find(std::string(key));
  return it == Table().fields().end() ? *none : it->second;
}

std::string Word(absl::string_view section, absl::string_view key, Lang lang) {
  const std::string* w = Lookup(section, key, lang);
  return w != nullptr ? *w : std::string(key);
}

std::string FieldText(const Value& v, Lang lang) {
  switch (v.kind_case()) {
    case Value::kStringValue: {
      if (const std::string* w = Lookup("colour", v.string_value(), lang)) return *w;
      return Word("enum", v.string_value(), lang);
    }
    case Value::kNumberValue:
      return absl::StrCat(v.number_value());
    case Value::kBoolValue:
      return v.bool_value() ? "true" : "false";
    case Value::kListValue: {
      std::vector<std::string> parts;
      for (const Value& e : v.list_value().values()) parts.push_back(FieldText(e, lang));
      return absl::StrJoin(parts, ", ");
    }
    case Value::kStructValue: {
      // Displacement {from, to}: in field order, as the JSON gives it.
      std::vector<std::string> parts;
      for (const char* key : {"from", "to"}) {
        auto it = v.struct_value().fields().find(key);
        if (it != v.struct_value().fields().end()) parts.push_back(FieldText(it->second, lang));
      }
      return absl::StrJoin(parts, "→");
    }
    default:
      return "";
  }
}

// Fills {name} from `fields` as words.js does; drops what an absent field
// leaves behind (an empty "()", doubled spaces).
std::string Fill(absl::string_view tmpl, const Struct& fields, Lang lang) {
  std::string colour;
  for (const char* key : {"color", "byColor"}) {
    auto it = fields.fields().find(key);
    if (it != fields.fields().end()) {
      colour = it->second.string_value();
      break;
    }
  }
  std::string out;
  for (size_t i = 0; i < tmpl.size();) {
    const size_t open = tmpl.find('{', i);
    const size_t close = open == absl::string_view::npos ? open : tmpl.find('}', open);
    if (close == absl::string_view::npos) {
      absl::StrAppend(&out, tmpl.substr(i));
      break;
    }
    absl::StrAppend(&out, tmpl.substr(i, open - i));
    const std::string name(tmpl.substr(open + 1, close - open - 1));
    if (name == "colour") {
      if (!colour.empty()) out += Word("colour", colour, lang);
    } else if (name == "side" || name == "Side") {
      if (!colour.empty()) out += SideWord(colour, lang);
    } else if (auto it = fields.fields().find(name); it != fields.fields().end()) {
      out += FieldText(it->second, lang);
    }
    i = close + 1;
  }
  out = absl::StrReplaceAll(out, {{"（）", ""}, {" ()", ""}, {"()", ""}, {"  ", " "}});
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

}  // namespace

std::string SideWord(absl::string_view colour, Lang lang) { return Word("side", colour, lang); }

std::string EnumWord(absl::string_view value, Lang lang) { return Word("enum", value, lang); }

std::string WhoWord(absl::string_view who, Lang lang) { return Word("who", who, lang); }

std::string TeamMatchWord(absl::string_view key, Lang lang) { return Word("teamMatch", key, lang); }

std::string BroadcastWord(absl::string_view key, Lang lang) { return Word("broadcast", key, lang); }

std::string EventWords(const v1::Event& event, Lang lang) {
  const auto* field = event.GetDescriptor()->FindFieldByNumber(event.kind_case());
  if (field == nullptr) return "?";
  const std::string* tmpl = Lookup("event", field->json_name(), lang);
  if (tmpl == nullptr) return field->json_name();
  Struct fields;
  (void)google::protobuf::util::JsonStringToMessage(
      ToJson(event.GetReflection()->GetMessage(event, field)), &fields);
  return Fill(*tmpl, fields, lang);
}

std::string SanctionWords(const v1::Ruling& ruling, Lang lang) {
  std::vector<std::pair<int, int>> counts;  // sanction, times, in order of first mention
  for (int s : ruling.sanctions()) {
    auto it = std::find_if(counts.begin(), counts.end(), [s](auto& c) { return c.first == s; });
    if (it == counts.end()) {
      counts.push_back({s, 1});
    } else {
      ++it->second;
    }
  }
  std::vector<std::string> parts;
  for (const auto& [s, n] : counts) {
    const std::string name = v1::Sanction_Name(static_cast<v1::Sanction>(s));
    const std::string* counted = n > 1 ? Lookup("sanction", name, lang, 2) : nullptr;
    std::string text = counted != nullptr
                           ? absl::StrReplaceAll(*counted, {{"{n}", absl::StrCat(n)}})
                           : Word("sanction", name, lang);
    if (s == v1::TIME_DEDUCTED && ruling.has_time_deducted()) {
      const int64_t secs = absl::ToInt64Seconds(FromProto(ruling.time_deducted()));
      const bool minutes = secs > 0 && secs % 60 == 0;
      absl::StrAppend(&text, " ",
                      absl::StrReplaceAll(Pair(Top(minutes ? "minutes" : "seconds"), lang),
                                          {{"{n}", absl::StrCat(minutes ? secs / 60 : secs)}}));
    }
    parts.push_back(std::move(text));
  }
  return absl::StrJoin(parts, lang == Lang::kZh ? "，" : ", ");
}

std::string ResultWords(const v1::Result& r, Lang lang) {
  const bool black = r.outcome() == v1::Result::BLACK_WINS;
  if (!black && r.outcome() != v1::Result::WHITE_WINS) {
    return Word("outcome", v1::Result::Outcome_Name(r.outcome()), lang);
  }
  const std::string reason =
      r.reason() == v1::Result::REASON_UNSPECIFIED ? "" : v1::Result::Reason_Name(r.reason());
  const std::string* tmpl = Lookup("win", reason, lang);
  if (tmpl == nullptr) tmpl = Lookup("win", "", lang);
  if (tmpl == nullptr) return v1::Result::Outcome_Name(r.outcome());
  std::string margin;
  if (r.has_margin_stones()) {
    const double stones = r.margin_stones();
    const int whole = static_cast<int>(std::floor(stones + 1e-9));
    const int quarter = static_cast<int>(std::lround((stones - whole) * 4));
    std::string text = whole > 0 || quarter == 0 ? absl::StrCat(whole) : "";
    if (quarter > 0) {
      if (whole > 0) text += Pair(Top("and"), lang);
      const Value& quarters = Top("quarters");
      if (quarters.has_list_value() && quarters.list_value().values_size() >= quarter) {
        text += Pair(quarters.list_value().values(quarter - 1), lang);
      }
    }
    margin = absl::StrReplaceAll(Pair(Top("margin"), lang),
                                 {{"{stones}", text}, {"{points}", absl::StrCat(stones * 2)}});
  }
  return absl::StrReplaceAll(
      *tmpl, {{"{colour}", Word("colour", black ? "BLACK" : "WHITE", lang)}, {"{margin}", margin}});
}

}  // namespace arbiter::service::console
