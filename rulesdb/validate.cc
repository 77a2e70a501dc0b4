#include "rulesdb/validate.h"

#include <algorithm>
#include <set>
#include <string>
#include <tuple>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "google/protobuf/util/time_util.h"

namespace arbiter {
namespace {

using google::protobuf::util::TimeUtil;

bool EndsGame(int sanction) {
  return sanction == v1::LOSS || sanction == v1::BOTH_LOSE || sanction == v1::DRAW ||
         sanction == v1::REPLAY || sanction == v1::NO_RESULT;
}

absl::Status Invalid(const std::string& where, const std::string& what) {
  return absl::InvalidArgumentError(absl::StrCat(where, ": ", what));
}

std::string Describe(const v1::Sanctioning& s) {
  return absl::StrCat("sanctioning ", v1::Incident_Name(s.incident()), " (", s.clause(),
                      ", occurrence ", s.occurrence(), ", venue ",
                      v1::GameCreated::Venue_Name(s.venue()), ")");
}

absl::Status CheckSanctioning(const std::string& owner, const v1::Sanctioning& s,
                              const absl::flat_hash_set<std::string>& ids) {
  const std::string where = absl::StrCat(owner, " ", Describe(s));
  if (s.incident() == v1::INCIDENT_UNSPECIFIED) return Invalid(where, "no incident");
  if (!ids.contains(s.clause())) return Invalid(where, "cites an unknown clause");
  for (const std::string& c : s.also_cites()) {
    if (!ids.contains(c)) return Invalid(where, absl::StrCat("also cites unknown clause ", c));
  }
  if (s.occurrence() < 0) return Invalid(where, "negative occurrence");
  if (s.against() == v1::TARGET_UNSPECIFIED) return Invalid(where, "says nothing of `against`");
  if (s.sanctions().empty() && s.options().empty() && s.note().empty()) {
    return Invalid(where, "imposes nothing: give sanctions, options or a note");
  }
  if (s.disposition() != v1::Sanctioning::RULE &&
      (!s.sanctions().empty() || !s.options().empty() || s.note().empty())) {
    return Invalid(where, absl::StrCat("is ", v1::Sanctioning::Disposition_Name(s.disposition()),
                                       ": it takes a note and no sanctions or options"));
  }
  bool ends_game = false;
  for (int x : s.sanctions()) {
    if (x == v1::SANCTION_UNSPECIFIED) return Invalid(where, "unspecified sanction");
    ends_game |= EndsGame(x);
  }
  if (!s.options().empty() && s.decided_by() == v1::AUTHORITY_UNSPECIFIED) {
    return Invalid(where, "has options but no `decided_by`");
  }
  if (s.options().empty() && s.decided_by() != v1::AUTHORITY_UNSPECIFIED) {
    return Invalid(where, "has `decided_by` but no options");
  }
  std::set<std::string> option_ids;
  for (const v1::RulingOption& o : s.options()) {
    if (o.id().empty()) return Invalid(where, "an option has no id");
    if (!option_ids.insert(o.id()).second) return Invalid(where, "duplicate option " + o.id());
    for (int x : o.sanctions()) {
      if (x == v1::SANCTION_UNSPECIFIED) return Invalid(where, "unspecified sanction");
      ends_game |= EndsGame(x);
    }
  }
  if (ends_game && s.reason() == v1::Result::REASON_UNSPECIFIED) {
    return Invalid(where, "may end the game but gives no result `reason`");
  }
  return absl::OkStatus();
}

absl::Status CheckSanctionings(const std::string& owner,
                               const google::protobuf::RepeatedPtrField<v1::Sanctioning>& list,
                               const absl::flat_hash_set<std::string>& ids) {
  std::set<std::tuple<int, int, int>> keys;
  for (const v1::Sanctioning& s : list) {
    if (absl::Status st = CheckSanctioning(owner, s, ids); !st.ok()) return st;
    // Two entries for the same key would make Find() ambiguous.
    if (!keys.insert({s.incident(), std::max(s.occurrence(), 1), s.venue()}).second) {
      return Invalid(owner, Describe(s) + " is given twice");
    }
  }
  return absl::OkStatus();
}

absl::Status CheckDuration(const std::string& where, const google::protobuf::Duration& d) {
  // Durations here are limits and tolerances: whole, non-negative, sane.
  if (d.seconds() < 0 || d.nanos() < 0 || d.nanos() > 999999999 ||
      d.seconds() > TimeUtil::kDurationMaxSeconds) {
    return Invalid(where, "must be a non-negative duration");
  }
  return absl::OkStatus();
}

// The 20.3 preset must be one of the options of the OTHER_REPETITION clause.
absl::Status CheckPreset(const std::string& owner, const std::string& preset,
                         const google::protobuf::RepeatedPtrField<v1::Sanctioning>& list) {
  if (preset.empty()) return absl::OkStatus();
  for (const v1::Sanctioning& s : list) {
    if (s.incident() != v1::OTHER_REPETITION) continue;
    for (const v1::RulingOption& o : s.options()) {
      if (o.id() == preset) return absl::OkStatus();
    }
  }
  return Invalid(owner, absl::StrCat("repetition_preset \"", preset,
                                     "\" is not an option of the OTHER_REPETITION clause"));
}

absl::flat_hash_set<std::string> ClauseIds(const v1::Ruleset& r) {
  absl::flat_hash_set<std::string> ids;
  for (const v1::Article& a : r.articles()) {
    ids.insert(a.id());
    for (const v1::Clause& c : a.clauses()) ids.insert(c.id());
  }
  return ids;
}

// Ids name files, catalog rows and CLI arguments ("cn-2002",
// "cn-2002+supplement"): letters, digits, '.', '_' and '-' only.
bool IsPlainId(const std::string& id) {
  if (id.empty()) return false;
  for (char c : id) {
    if (!absl::ascii_isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '_' && c != '-') {
      return false;
    }
  }
  return true;
}

}  // namespace

std::string OptionId(const google::protobuf::RepeatedField<int>& sanctions) {
  std::string id;
  for (int x : sanctions) {
    absl::StrAppend(&id, id.empty() ? "" : "+", v1::Sanction_Name(static_cast<v1::Sanction>(x)));
  }
  return id;
}

absl::Status ValidateRuleset(const v1::Ruleset& r) {
  const std::string owner = absl::StrCat("ruleset ", r.id().empty() ? "(no id)" : r.id());
  if (!IsPlainId(r.id())) return Invalid(owner, "needs an id of letters, digits, '.', '_', '-'");
  if (r.version().empty()) return Invalid(owner, "needs a version");
  absl::flat_hash_set<std::string> ids;
  std::set<int> numbers;
  for (const v1::Article& a : r.articles()) {
    const std::string expected = absl::StrCat(r.id(), "/", a.number());
    if (a.number() <= 0 || !numbers.insert(a.number()).second || a.id() != expected) {
      return Invalid(owner,
                     absl::StrCat("article ", a.id(), " must have a new number and id ", expected));
    }
    if (a.title_en().empty()) return Invalid(owner, a.id() + " has no English title");
    if (a.clauses().empty() && a.text_zh().empty()) return Invalid(owner, a.id() + " has no text");
    ids.insert(a.id());
    for (const v1::Clause& c : a.clauses()) {
      if (!absl::StartsWith(c.id(), a.id() + ".") || !ids.insert(c.id()).second) {
        return Invalid(owner, absl::StrCat("clause ", c.id(), " must be new and inside ", a.id()));
      }
      if (c.text_zh().empty()) return Invalid(owner, c.id() + " has no text");
    }
  }
  const v1::Parameters& p = r.parameters();
  if (p.late_deduction_multiplier() < 1) return Invalid(owner, "late_deduction_multiplier < 1");
  if (p.warnings_for_loss() < 1) return Invalid(owner, "warnings_for_loss < 1");
  if (p.wrong_colors_correctable_moves() < 0) return Invalid(owner, "wrong_colors < 0");
  for (const auto* d : {&p.late_limit_same_site(), &p.late_limit_separate_site(),
                        &p.clock_error_tolerance_per_hour(), &p.flag_dispute_margin()}) {
    if (absl::Status st = CheckDuration(owner + " parameters", *d); !st.ok()) return st;
  }
  if (absl::Status st = CheckSanctionings(owner, r.sanctionings(), ids); !st.ok()) return st;
  return CheckPreset(owner, p.repetition_preset(), r.sanctionings());
}

absl::Status ValidateSupplement(const v1::Supplement& s, const v1::Ruleset& base) {
  const std::string owner = absl::StrCat("supplement ", s.id().empty() ? "(no id)" : s.id());
  if (!IsPlainId(s.id()) || s.version().empty()) {
    return Invalid(owner, "needs a version and an id of letters, digits, '.', '_', '-'");
  }
  if (s.base_ruleset() != base.id()) {
    return Invalid(owner,
                   absl::StrCat("is based on \"", s.base_ruleset(), "\", not \"", base.id(), "\""));
  }
  const v1::ParameterOverrides& o = s.overrides();
  if (o.has_late_deduction_multiplier() && o.late_deduction_multiplier() < 1) {
    return Invalid(owner, "late_deduction_multiplier < 1");
  }
  if (o.has_warnings_for_loss() && o.warnings_for_loss() < 1) {
    return Invalid(owner, "warnings_for_loss < 1");
  }
  if (o.has_wrong_colors_correctable_moves() && o.wrong_colors_correctable_moves() < 0) {
    return Invalid(owner, "wrong_colors_correctable_moves < 0");
  }
  for (const auto* d : {&o.late_limit_same_site(), &o.late_limit_separate_site(),
                        &o.clock_error_tolerance_per_hour(), &o.flag_dispute_margin()}) {
    if (absl::Status st = CheckDuration(owner + " overrides", *d); !st.ok()) return st;
  }
  if (absl::Status st = CheckSanctionings(owner, s.sanctionings(), ClauseIds(base)); !st.ok()) {
    return st;
  }
  // The preset may name an option of the supplement's own 20.3 entry or the base's.
  if (o.has_repetition_preset() && !o.repetition_preset().empty()) {
    if (!CheckPreset(owner, o.repetition_preset(), s.sanctionings()).ok()) {
      return CheckPreset(owner, o.repetition_preset(), base.sanctionings());
    }
  }
  return absl::OkStatus();
}

}  // namespace arbiter
