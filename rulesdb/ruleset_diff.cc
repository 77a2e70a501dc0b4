#include "rulesdb/ruleset_diff.h"

#include <algorithm>
#include <map>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "google/protobuf/text_format.h"
#include "rulesdb/validate.h"

namespace arbiter {
namespace {

using google::protobuf::FieldDescriptor;
using v1::GameCreated;

constexpr GameCreated::Venue kVenues[] = {GameCreated::SAME_SITE, GameCreated::SEPARATE_SITE,
                                          GameCreated::RAPID};

// Quarters of a stone as a mixed number: 15 -> "3¾", 11 -> "2¾", 14 -> "3½".
std::string Stones(int quarters) {
  static const char* const kFractions[] = {"", "¼", "½", "¾"};
  const int whole = quarters / 4, rest = quarters % 4;
  if (rest == 0) return absl::StrCat(whole);
  return whole == 0 ? kFractions[rest] : absl::StrCat(whole, kFractions[rest]);
}

std::string FieldText(const google::protobuf::Message& m, const FieldDescriptor* f) {
  if (f->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE && !m.GetReflection()->HasField(m, f)) {
    return "(unset)";
  }
  if (f->name() == "komi_quarters") {
    return absl::StrCat(Stones(m.GetReflection()->GetInt32(m, f)), " stones");
  }
  std::string text;
  google::protobuf::TextFormat::PrintFieldValueToString(m, f, -1, &text);
  if (f->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE) {
    // A Duration prints as "seconds: 900"; say "900s".
    const auto& d = m.GetReflection()->GetMessage(m, f);
    const auto* seconds = d.GetDescriptor()->FindFieldByName("seconds");
    if (seconds != nullptr) return absl::StrCat(d.GetReflection()->GetInt64(d, seconds), "s");
  }
  return text.empty() ? "\"\"" : text;
}

// The part of a clause id after "<ruleset>/".
std::string Number(const std::string& id) { return id.substr(id.find('/') + 1); }

// What matters of a sanctioning across rulesets: everything but the ruleset
// prefix of the clause ids.
std::string Essence(const v1::Sanctioning* s, bool with_clause = true) {
  if (s == nullptr) return "";
  v1::Sanctioning copy = *s;
  copy.set_clause(with_clause ? Number(copy.clause()) : "");
  copy.clear_also_cites();
  copy.clear_note();
  copy.clear_venue();
  copy.set_occurrence(std::max(copy.occurrence(), 1));
  std::string text;
  google::protobuf::TextFormat::PrintToString(copy, &text);
  return text;
}

std::map<std::string, const v1::Clause*> ClausesByNumber(const Rules& rules) {
  std::map<std::string, const v1::Clause*> out;
  for (const v1::Article& a : rules.ruleset().articles()) {
    out[Number(a.id())] = rules.FindClause(a.id());
    for (const v1::Clause& c : a.clauses()) out[Number(c.id())] = &c;
  }
  return out;
}

// Whether the ruleset's warnings cost a stone at the count: "true", "false",
// or "mixed".
std::string PenaltyStonePerWarning(const Rules& rules) {
  bool with = false, without = false;
  for (const v1::Sanctioning& s : rules.sanctionings()) {
    const auto& x = s.sanctions();
    if (std::find(x.begin(), x.end(), v1::WARNING) == x.end()) continue;
    (std::find(x.begin(), x.end(), v1::PENALTY_STONE) != x.end() ? with : without) = true;
  }
  return with && without ? "mixed" : with ? "true" : "false";
}

// Orders "17.5.3" numerically, part by part.
bool ByNumber(const std::string& x, const std::string& y) {
  std::vector<int> a, b;
  for (const auto* s : {&x, &y}) {
    auto& out = s == &x ? a : b;
    for (absl::string_view part : absl::StrSplit(*s, '.')) {
      int n = 0;
      for (char c : part) n = n * 10 + (c - '0');
      out.push_back(n);
    }
  }
  return a < b;
}

}  // namespace

std::string DescribeSanctioning(const v1::Sanctioning& s) {
  std::string text = s.clause();
  if (!s.sanctions().empty()) absl::StrAppend(&text, " ", OptionId(s.sanctions()));
  if (!s.options().empty()) {
    std::vector<std::string> ids;
    for (const v1::RulingOption& o : s.options()) {
      ids.push_back(o.against() == v1::Ruling::BOTH ? absl::StrCat(o.id(), " against both")
                    : o.against() != v1::Ruling::PARTY_UNSPECIFIED
                        ? absl::StrCat(o.id(), " against ", v1::Ruling::Party_Name(o.against()))
                        : o.id());
    }
    absl::StrAppend(&text, s.sanctions().empty() ? " pending" : ",", " {",
                    absl::StrJoin(ids, " | "), "} (", v1::Authority_Name(s.decided_by()), ")");
  }
  switch (s.disposition()) {
    case v1::Sanctioning::NO_RULING:
      absl::StrAppend(&text, " (no ruling: the event is the record)");
      break;
    case v1::Sanctioning::REFUSE:
      absl::StrAppend(&text, " (the event is refused)");
      break;
    default:
      if (s.sanctions().empty() && s.options().empty()) absl::StrAppend(&text, " (no sanction)");
      break;
  }
  if (s.against() == v1::BOTH_PLAYERS) absl::StrAppend(&text, " against both");
  if (s.reason() != v1::Result::REASON_UNSPECIFIED) {
    absl::StrAppend(&text, " [", v1::Result::Reason_Name(s.reason()), "]");
  }
  return text;
}

namespace {

// The parameters that differ, each printed as its ruleset file writes it,
// and whether a warning costs a stone at the count, which the sanctionings
// decide rather than a parameter.
void DiffParameters(const Rules& a, const Rules& b, std::vector<RulesetDiff::Parameter>& out) {
  const google::protobuf::Descriptor* params = v1::Parameters::descriptor();
  for (int i = 0; i < params->field_count(); ++i) {
    const FieldDescriptor* f = params->field(i);
    std::string before = FieldText(a.params(), f), after = FieldText(b.params(), f);
    if (before != after) out.push_back({f->name(), before, after});
  }
  const std::string stones_a = PenaltyStonePerWarning(a), stones_b = PenaltyStonePerWarning(b);
  if (stones_a != stones_b) out.push_back({"penalty_stone_per_warning", stones_a, stones_b});
}

// The sanctionings that differ for one incident at one escalation step,
// one change for each group of venues that sees the same pair of them (no
// venues named when all do).
void DiffSanctionStep(const Rules& a, const Rules& b, v1::Incident incident, int occurrence,
                      std::vector<RulesetDiff::Sanction>& out) {
  std::map<std::pair<std::string, std::string>, std::vector<std::string>> groups;
  std::map<std::pair<std::string, std::string>,
           std::pair<const v1::Sanctioning*, const v1::Sanctioning*>>
      found;
  for (GameCreated::Venue venue : kVenues) {
    const v1::Sanctioning* x = a.Find(incident, occurrence, venue);
    const v1::Sanctioning* y = b.Find(incident, occurrence, venue);
    if (Essence(x) == Essence(y)) continue;
    // Only steps where a new entry starts are worth a line of their own.
    if (occurrence > 1 && (x == nullptr || std::max(x->occurrence(), 1) < occurrence) &&
        (y == nullptr || std::max(y->occurrence(), 1) < occurrence)) {
      continue;
    }
    auto key = std::make_pair(Essence(x), Essence(y));
    groups[key].push_back(GameCreated::Venue_Name(venue));
    found[key] = {x, y};
  }
  for (const auto& [key, venues] : groups) {
    const auto [x, y] = found[key];
    RulesetDiff::Sanction change;
    change.kind = x == nullptr                             ? RulesetDiff::Sanction::kAdded
                  : y == nullptr                           ? RulesetDiff::Sanction::kRemoved
                  : Essence(x, false) == Essence(y, false) ? RulesetDiff::Sanction::kMoved
                                                           : RulesetDiff::Sanction::kChanged;
    change.incident = incident;
    change.occurrence = occurrence;
    change.venues = venues.size() == std::size(kVenues) ? "" : absl::StrJoin(venues, ",");
    if (x != nullptr) change.before = DescribeSanctioning(*x);
    if (y != nullptr) change.after = DescribeSanctioning(*y);
    out.push_back(std::move(change));
  }
}

// The clauses by number (the ruleset prefix dropped), in numeric order:
// those only in `b`, only in `a`, and those whose Chinese text differs.
void DiffClauses(const Rules& a, const Rules& b, std::vector<RulesetDiff::Clause>& out) {
  const auto xs = ClausesByNumber(a), ys = ClausesByNumber(b);
  std::set<std::string, decltype(&ByNumber)> numbers(&ByNumber);
  for (const auto& [n, c] : xs) numbers.insert(n);
  for (const auto& [n, c] : ys) numbers.insert(n);
  for (const std::string& n : numbers) {
    auto x = xs.find(n), y = ys.find(n);
    if (x == xs.end()) {
      out.push_back({RulesetDiff::Clause::kAdded, n});
    } else if (y == ys.end()) {
      out.push_back({RulesetDiff::Clause::kRemoved, n});
    } else if (x->second->text_zh() != y->second->text_zh()) {
      out.push_back({RulesetDiff::Clause::kTextChanged, n});
    }
  }
}

}  // namespace

RulesetDiff DiffRules(const Rules& a, const Rules& b) {
  RulesetDiff diff;
  diff.a = a.id();
  diff.b = b.id();
  DiffParameters(a, b, diff.parameters);
  // Every incident and escalation step either side knows.
  std::map<int, int> steps;  // incident -> highest occurrence
  for (const Rules* r : {&a, &b}) {
    for (const v1::Sanctioning& s : r->sanctionings()) {
      int& top = steps[s.incident()];
      top = std::max(top, std::max(s.occurrence(), 1));
    }
  }
  for (const auto& [incident_number, top] : steps) {
    for (int occurrence = 1; occurrence <= top; ++occurrence) {
      DiffSanctionStep(a, b, static_cast<v1::Incident>(incident_number), occurrence,
                       diff.sanctions);
    }
  }
  DiffClauses(a, b, diff.clauses);
  return diff;
}

}  // namespace arbiter
