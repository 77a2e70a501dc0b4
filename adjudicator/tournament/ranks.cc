#include "adjudicator/tournament/ranks.h"

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "adjudicator/tournament/names.h"

namespace arbiter::tournament {

std::optional<Rank> ParseRank(absl::string_view text) {
  if (text.size() < 2 || text.size() > 3 || text[0] < '1' || text[0] > '9') return std::nullopt;
  int number = 0;
  for (char c : text.substr(0, text.size() - 1)) {
    if (!absl::ascii_isdigit(static_cast<unsigned char>(c))) return std::nullopt;
    number = number * 10 + (c - '0');
  }
  Rank r;
  r.number = number;
  switch (absl::ascii_tolower(static_cast<unsigned char>(text.back()))) {
    case 'k':
      r.kind = Rank::kKyu;
      return number <= 30 ? std::optional<Rank>(r) : std::nullopt;
    case 'd':
      r.kind = Rank::kDan;
      break;
    case 'p':
      r.kind = Rank::kPro;
      break;
    default:
      return std::nullopt;
  }
  return number <= 9 ? std::optional<Rank>(r) : std::nullopt;
}

std::string RankAsWritten(const Rank& rank) {
  return absl::StrCat(rank.number, rank.kind == Rank::kKyu   ? "k"
                                   : rank.kind == Rank::kDan ? "d"
                                                             : "p");
}

absl::Status CheckPlayerRank(const v1::TournamentPlayer& p, bool required) {
  if (p.rank().empty() && !required) return absl::OkStatus();
  if (ParseRank(p.rank()).has_value()) return absl::OkStatus();
  const std::string who = p.id().empty()
                              ? absl::StrCat("player ", NativeName(p))
                              : absl::StrCat("player '", p.id(), "' (", NativeName(p), ")");
  return absl::InvalidArgumentError(
      p.rank().empty() ? absl::StrCat(who, " has no rank; a rank is ", kRankForms)
                       : absl::StrCat(who, ": rank \"", p.rank(), "\" is not a rank; a rank is ",
                                      kRankForms, " (K, D, P in either case)"));
}

absl::Status CheckRanksEntered(const v1::TournamentEvent& event) {
  if (event.has_player_added()) return CheckPlayerRank(event.player_added().player(), false);
  if (event.has_corrected() && event.corrected().has_player_updated())
    return CheckPlayerRank(event.corrected().player_updated().player(), false);
  return absl::OkStatus();
}

}  // namespace arbiter::tournament
