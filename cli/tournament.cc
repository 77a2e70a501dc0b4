// `arbiter tournament SUBCOMMAND`: tournaments on a server
// (arbiter.v1.TournamentService). The subcommands are in
// cli/tournament_{setup,rounds,reports}.cc; see tournament.h.
#include "cli/tournament.h"

#include <cstdio>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "adjudicator/tournament/corrections.h"
#include "adjudicator/tournament/names.h"
#include "cli/commands.h"

namespace arbiter::cli {
namespace {

constexpr Subcommand kTournamentSubcommands[] = {
    {&kTournamentCreate, TournamentCreate},
    {&kTournamentImport, TournamentImport},
    {&kTournamentPlayer, TournamentPlayer},
    {&kTournamentPair, TournamentPair},
    {&kTournamentReplay, TournamentReplay},
    {&kTournamentWithdraw, TournamentWithdraw},
    {&kTournamentTiebreak, TournamentTiebreak},
    {&kTournamentShow, TournamentShow},
    {&kTournamentStandings, TournamentStandings},
    {&kTournamentExport, TournamentExport},
    {&kTournamentAmend, TournamentAmend},
    {&kTournamentUpdate, TournamentUpdate},
    {&kTournamentResult, TournamentResult},
    {&kTournamentReinstate, TournamentReinstate},
    {&kTournamentImportRound, TournamentImportRound},
    {&kTournamentStartRound, TournamentStartRound},
    {&kTournamentLineup, TournamentLineup},
};
constexpr CommandGroup kTournament = {
    .name = "tournament",
    .summary = "tournaments on a server: entrants, rounds, standings (art. 27-28), exports",
    .subcommands = kTournamentSubcommands,
};

}  // namespace

int RunTournament(int argc, char** argv) { return RunGroup(kTournament, argc, argv); }

std::string TournamentName(const Args& args) {
  return absl::StrCat("tournaments/", args.positionals()[0]);
}

void PrintTournament(const v1::Tournament& t) {
  std::printf("%s  %s  (%s%s, revision %llu)\n", t.name().c_str(), t.title().c_str(),
              v1::TournamentSettings::System_Name(t.settings().system()).c_str(),
              t.settings().teams() ? ", teams" : "", static_cast<unsigned long long>(t.revision()));
  for (const v1::TournamentTeam& team : t.teams()) {
    std::printf("  team %s  %s\n", team.id().c_str(), team.name().c_str());
  }
  for (const v1::TournamentPlayer& p : t.players()) {
    // The name as every page and standing gives it (names.h).
    std::printf("  player %-16s %s %s", p.id().c_str(), tournament::NativeName(p).c_str(),
                p.rank().c_str());
    if (!p.romanized_family_name().empty()) {
      std::printf("  (%s %s)", p.romanized_family_name().c_str(), p.romanized_given_name().c_str());
    }
    if (!p.team().empty()) std::printf("  team %s board %d", p.team().c_str(), p.board());
    if (!p.club().empty()) std::printf("  club %s", p.club().c_str());
    if (!p.country().empty()) std::printf("  country %s", p.country().c_str());
    if (!p.egf_pin().empty()) std::printf("  EGD %s", p.egf_pin().c_str());
    if (!p.aga_id().empty()) std::printf("  AGA %s", p.aga_id().c_str());
    std::printf("\n");
  }
  for (const v1::TournamentRound& r : t.rounds()) {
    std::printf("  round %d\n", r.round());
    for (const v1::Pairing& p : r.pairings()) {
      std::printf(
          "    board %d%s  %s (B) - %s (W)  game %s%s\n", p.board(),
          p.team_board() > 0 ? absl::StrCat(" (match board ", p.team_board(), ")").c_str() : "",
          p.black().c_str(), p.white().c_str(), p.game_id().empty() ? "-" : p.game_id().c_str(),
          p.from_score_sheet() ? absl::StrCat("  ", v1::Result::Outcome_Name(p.entered_outcome()),
                                              " from the paper score sheet")
                                     .c_str()
                               : "");
    }
    for (const std::string& b : r.byes()) std::printf("    bye %s\n", b.c_str());
  }
  for (const v1::LineupSet& l : t.lineups()) {
    std::printf("  lineup round %d team %s: %s\n", l.round(), l.team().c_str(),
                absl::StrJoin(l.players(), ", ").c_str());
  }
  for (const v1::PlayerWithdrawn& w : t.withdrawals()) {
    std::printf("  withdrawn %s after round %d\n", w.player().c_str(), w.after_round());
  }
  for (const std::string& c : tournament::CorrectionLines(t, false)) {
    std::printf("  correction %s\n", c.c_str());
  }
}

}  // namespace arbiter::cli
