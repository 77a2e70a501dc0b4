// A player's names as each consumer needs them: the native name as the
// player writes it (standings), the romanized name the ASCII formats need
// (EGD .h9, AGA, and OpenGotha where given), and whether a name recorded
// on a game names the player. Pure.
#ifndef ARBITER_ADJUDICATOR_TOURNAMENT_NAMES_H_
#define ARBITER_ADJUDICATOR_TOURNAMENT_NAMES_H_

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "arbiter/v1/tournament.pb.h"

namespace arbiter::tournament {

struct RomanizedName {
  std::string family;
  std::string given;  // may be empty for a name given whole
};

// The native name as it is read: family then given, joined by a space
// unless both are written in CJK characters (李伟, "Müller Hans").
std::string NativeName(const v1::TournamentPlayer& p);

// Printable ASCII only (0x20 to 0x7E).
bool IsPrintableAscii(absl::string_view s);

// The name in Latin letters for a format that is ASCII (`format` names it
// in the error): the romanized name if given, else the native name when it
// is all printable ASCII. INVALID_ARGUMENT naming the player otherwise.
absl::StatusOr<RomanizedName> Romanized(const v1::TournamentPlayer& p, absl::string_view format);

// Whether `recorded` (a game's recorded player name) names `p`: its id, its
// native name (family and given in either order, with or without a space)
// or its romanized name, compared with Unicode case folding (MÜLLER is
// Müller, STRAUSS is Strauß; Turkish İ, ı and i alike), NFC and runs of
// white space ignored.
bool RecordedAs(const v1::TournamentPlayer& p, absl::string_view recorded);

// The names an event being recorded enters (a player added, a player's
// record corrected: the native and romanized names and the club) hold no
// control characters (C0 with tab, CR and LF, DEL, C1): a name is one line,
// and the games a round creates carry it, which CreateGame would refuse at
// that board. INVALID_ARGUMENT naming the player and the field. As
// CheckRanksEntered (ranks.h): the service checks each event it is asked to
// record; the fold does not, so a tournament recorded before still folds.
absl::Status CheckNamesEntered(const v1::TournamentEvent& event);

// Java's String.toUpperCase() (root locale) of UTF-8 text, which OpenGotha
// applies to build a player's key string: Unicode's case mapping through
// utf8proc, with SpecialCasing's unconditional expansions (ß -> SS, ﬁ -> FI)
// and no locale (i -> I, also for Turkish names). INVALID_ARGUMENT for text
// that is not UTF-8.
absl::StatusOr<std::string> JavaUpperCase(absl::string_view utf8);

}  // namespace arbiter::tournament

#endif  // ARBITER_ADJUDICATOR_TOURNAMENT_NAMES_H_
