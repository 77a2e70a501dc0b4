// A player's rank: the one definition the input checks (a player added,
// corrected or imported) and every export (EGD .h9, AGA, OpenGotha) use,
// so a rank is refused when entered and never rewritten in a file. Pure.
//
// A rank is a number and a letter, the letter in either case: 30K to 1K
// (kyu), 1D to 9D (amateur dan), 1P to 9P (professional dan). Nothing
// else: no 0K or 0D, no 10D (OpenGotha's scale and the EGD's stop at 9d),
// no 31K (the EGD's and OpenGotha's floor is 30k), no bare number, no
// leading zero, no spaces.
#ifndef ARBITER_ADJUDICATOR_TOURNAMENT_RANKS_H_
#define ARBITER_ADJUDICATOR_TOURNAMENT_RANKS_H_

#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "arbiter/v1/tournament.pb.h"

namespace arbiter::tournament {

struct Rank {
  enum Kind { kKyu, kDan, kPro };
  Kind kind = kKyu;
  int number = 0;  // 1..30 kyu, 1..9 dan or professional
};

// The accepted forms, for error messages.
inline constexpr absl::string_view kRankForms = "30K to 1K, 1D to 9D or 1P to 9P";

// nullopt: not a rank.
std::optional<Rank> ParseRank(absl::string_view text);

// As EGD and AGA write it: "5k", "3d", "9p".
std::string RankAsWritten(const Rank& rank);

// INVALID_ARGUMENT naming the player and the rank when `p`'s rank is not
// one; an empty rank is refused only when `required`.
absl::Status CheckPlayerRank(const v1::TournamentPlayer& p, bool required);

// The ranks an event being recorded enters (a player added, a player's
// record corrected), checked as above. The service checks each event it is
// asked to record; the fold does not, so a tournament recorded before the
// check still folds and verifies (its exports refuse the rank by name).
absl::Status CheckRanksEntered(const v1::TournamentEvent& event);

}  // namespace arbiter::tournament

#endif  // ARBITER_ADJUDICATOR_TOURNAMENT_RANKS_H_
