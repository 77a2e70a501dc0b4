#include "adjudicator/service/names.h"

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace arbiter::service {
namespace {

constexpr absl::string_view kGames = "games/";
constexpr absl::string_view kRulesets = "rulesets/";

bool IdChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         c == '-' || c == '.' || c == '_' || c == '~';
}

}  // namespace

absl::Status CheckGameId(absl::string_view id) {
  if (id.empty()) return absl::InvalidArgumentError("the game id is empty");
  if (id.size() > 128) return absl::InvalidArgumentError("the game id is longer than 128");
  for (char c : id) {
    if (!IdChar(c)) {
      return absl::InvalidArgumentError(
          absl::StrCat("game id '", id, "': only letters, digits and -._~ are allowed"));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<std::string> ParseGameName(absl::string_view name, absl::string_view field) {
  if (!absl::StartsWith(name, kGames)) {
    return absl::InvalidArgumentError(
        absl::StrCat(field, ": expected \"games/{game_id}\", got \"", name, "\""));
  }
  absl::string_view id = name.substr(kGames.size());
  if (absl::Status s = CheckGameId(id); !s.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(field, ": ", s.message()));
  }
  return std::string(id);
}

std::string GameName(absl::string_view id) { return absl::StrCat(kGames, id); }

absl::StatusOr<std::string> ParseRulesetName(absl::string_view name) {
  if (!absl::StartsWith(name, kRulesets) || name.size() == kRulesets.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("name: expected \"rulesets/{id}\", got \"", name, "\""));
  }
  return std::string(name.substr(kRulesets.size()));
}

}  // namespace arbiter::service
