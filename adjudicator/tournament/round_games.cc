#include "adjudicator/tournament/round_games.h"

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "adjudicator/tournament/fold.h"
#include "adjudicator/tournament/names.h"
#include "proto/names/resource_name.h"
#include "rulesdb/rules.h"

namespace arbiter::tournament {
namespace {

v1::Player GamePlayer(const v1::TournamentPlayer& p) {
  v1::Player out;
  out.set_name(NativeName(p));
  // Ranks as games carry them ("5d", "1k"); the tournament keeps "5D".
  out.set_rank(absl::AsciiStrToLower(p.rank()));
  return out;
}

}  // namespace

absl::StatusOr<std::string> RoundGameId(absl::string_view tournament_id, int round, int board) {
  std::string id = absl::StrCat(tournament_id, "-r", round, "-b", board);
  if (absl::Status s = CheckId("game", id); !s.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("round ", round, " board ", board, ": ",
                                                   s.message(), " (a shorter tournament id)"));
  }
  return id;
}

absl::StatusOr<v1::GameCreated> RoundGame(const v1::Tournament& t, const v1::Pairing& p,
                                          const std::string& game_id) {
  const std::string at = absl::StrCat("round ", p.round(), " board ", p.board());
  if (p.board() > 9999) {
    return absl::InvalidArgumentError(absl::StrCat(at, ": a hall's tables are numbered 1 to 9999"));
  }
  if (p.handicap() > 0) {
    return absl::FailedPreconditionError(absl::StrCat(
        at, ": handicap ", p.handicap(),
        "; the adjudicator judges even games only (no handicap stones or their compensation)"));
  }
  const v1::TournamentPlayer* black = FindPlayer(t, p.black());
  const v1::TournamentPlayer* white = FindPlayer(t, p.white());
  if (black == nullptr || white == nullptr) {
    return absl::InternalError(absl::StrCat(at, ": a player the fold should have refused"));
  }
  const v1::TournamentSettings& s = t.settings();
  v1::GameCreated g;
  g.set_game_id(game_id);
  g.set_ruleset(s.ruleset().empty() ? kDefaultRuleset : s.ruleset());
  g.set_board_size(19);
  *g.mutable_black() = GamePlayer(*black);
  *g.mutable_white() = GamePlayer(*white);
  g.set_venue(s.venue() == v1::GameCreated::VENUE_UNSPECIFIED ? v1::GameCreated::SAME_SITE
                                                              : s.venue());
  if (s.has_time_control()) *g.mutable_time_control() = s.time_control();
  if (s.komi() != 0) g.set_komi_stones(s.komi());
  g.set_live(s.live_games());
  g.set_table(static_cast<uint32_t>(p.board()));
  return g;
}

}  // namespace arbiter::tournament
