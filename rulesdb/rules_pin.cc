#include "rulesdb/rules_pin.h"

#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"

namespace arbiter {
namespace {

constexpr absl::string_view kSha256 = "sha256:";

absl::Status Malformed(absl::string_view pin) {
  return absl::InvalidArgumentError(absl::StrCat(
      "rules pin \"", pin, "\": expected \"ID sha256:HEX[ + SUPPLEMENT sha256:HEX]\""));
}

// "ID sha256:HEX" -> {ID, HEX}.
absl::StatusOr<std::pair<std::string, std::string>> Part(absl::string_view part,
                                                         absl::string_view pin) {
  const std::vector<absl::string_view> words = absl::StrSplit(part, ' ', absl::SkipEmpty());
  if (words.size() != 2 || !absl::StartsWith(words[1], kSha256) ||
      words[1].size() != kSha256.size() + 64) {
    return Malformed(pin);
  }
  return std::make_pair(std::string(words[0]), std::string(words[1].substr(kSha256.size())));
}

}  // namespace

std::string RulesPin(const Rules& rules) {
  std::string pin = absl::StrCat(rules.id(), " ", kSha256, rules.hash());
  if (!rules.supplement_id().empty()) {
    absl::StrAppend(&pin, " + ", rules.supplement_id(), " ", kSha256, rules.supplement_hash());
  }
  return pin;
}

absl::StatusOr<Rules> LoadPinnedRules(std::string_view pin_text) {
  const absl::string_view pin(pin_text.data(), pin_text.size());
  const std::vector<absl::string_view> parts = absl::StrSplit(pin, " + ");
  if (parts.size() > 2) return Malformed(pin);
  absl::StatusOr<std::pair<std::string, std::string>> ruleset = Part(parts[0], pin);
  if (!ruleset.ok()) return ruleset.status();
  std::pair<std::string, std::string> supplement;
  if (parts.size() == 2) {
    absl::StatusOr<std::pair<std::string, std::string>> s = Part(parts[1], pin);
    if (!s.ok()) return s.status();
    supplement = *std::move(s);
  }
  absl::StatusOr<Rules> rules = LoadRulesByHash(ruleset->second, supplement.first);
  if (!rules.ok()) return rules.status();
  if (rules->id() != ruleset->first) {
    return absl::NotFoundError(absl::StrCat("rules pin \"", pin, "\": the hash is ", rules->id(),
                                            "'s, not ", ruleset->first, "'s"));
  }
  if (rules->supplement_hash() != supplement.second) {
    return absl::FailedPreconditionError(absl::StrCat("rules pin \"", pin, "\": supplement ",
                                                      supplement.first, " now hashes to ",
                                                      rules->supplement_hash()));
  }
  return rules;
}

}  // namespace arbiter
