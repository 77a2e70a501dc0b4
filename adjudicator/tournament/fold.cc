#include "adjudicator/tournament/fold.h"

#include <algorithm>
#include <set>
#include <string>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "adjudicator/tournament/corrections.h"
#include "adjudicator/tournament/matches.h"
#include "adjudicator/tournament/names.h"
#include "adjudicator/tournament/standings_rules.h"
#include "proto/names/resource_name.h"

namespace arbiter::tournament {
namespace {

using v1::Tournament;

absl::Status Bad(absl::string_view why) { return absl::InvalidArgumentError(why); }

bool ValidOutcomeEntry(v1::Result::Outcome o) {
  switch (o) {
    case v1::Result::OUTCOME_UNSPECIFIED:  // no result yet
    case v1::Result::BLACK_WINS:
    case v1::Result::WHITE_WINS:
    case v1::Result::DRAW:
    case v1::Result::BOTH_LOSE:
    case v1::Result::NO_RESULT:
    case v1::Result::BOTH_WIN:  // only as tournament software's file has it
      return true;
    default:  // REPLAY is a game's outcome, not an entry: a replay needs a game
      return false;
  }
}

bool GameIdUsed(const Tournament& t, absl::string_view game_id) {
  for (const v1::TournamentRound& r : t.rounds()) {
    for (const v1::Pairing& p : r.pairings()) {
      if (p.game_id() == game_id) return true;
      for (const std::string& g : p.replayed_game_ids()) {
        if (g == game_id) return true;
      }
    }
  }
  for (const v1::TieBreakDecided& d : t.tie_breaks()) {
    for (const std::string& g : d.game_ids()) {
      if (g == game_id) return true;
    }
  }
  return false;
}

// The team system, board colours and match size (matches.h).
absl::Status CheckTeamSettings(const v1::TournamentSettings& s) {
  using v1::TournamentSettings;
  if (s.team_system() == TournamentSettings::ALL_PLAY ||
      s.team_system() == TournamentSettings::CHALLENGE) {
    return Bad(absl::StrCat(
        "settings.teamSystem: ",
        s.team_system() == TournamentSettings::ALL_PLAY ? "全队轮赛制 (25.2)" : "擂台赛 (26.6)",
        " is not supported: FIXED_BOARDS (分台定人制) or ROUND_LINEUP (临场出人制)"));
  }
  if (!TournamentSettings::TeamSystem_IsValid(s.team_system()) ||
      !TournamentSettings::BoardColours_IsValid(s.board_colours())) {
    return Bad("settings: an unknown teamSystem or boardColours");
  }
  if (!s.teams() && (s.team_system() != TournamentSettings::TEAM_SYSTEM_UNSPECIFIED ||
                     s.board_colours() != TournamentSettings::BOARD_COLOURS_UNSPECIFIED ||
                     s.match_boards() != 0)) {
    return Bad("settings: teamSystem, boardColours and matchBoards belong to team events");
  }
  if (s.match_boards() < 0) return Bad("settings.matchBoards cannot be negative");
  if (s.team_system() == TournamentSettings::ROUND_LINEUP && s.match_boards() == 0) {
    return Bad(
        "settings.matchBoards: 临场出人制 needs the number of players a team fields in a match "
        "(25.2: 每队人数相等)");
  }
  return absl::OkStatus();
}

absl::Status OnCreated(const v1::TournamentCreated& c, Tournament* t) {
  if (!IsValidId(c.tournament_id())) {
    return Bad(absl::StrCat("tournamentId '", c.tournament_id(),
                            "': letters, digits and ._- only, 1 to 64 of them"));
  }
  const v1::TournamentSettings& s = c.settings();
  if (s.system() == v1::TournamentSettings::SYSTEM_UNSPECIFIED) {
    return Bad("settings.system: ROUND_ROBIN or SWISS is required");
  }
  if (s.rounds() < 0 || s.cycles() < 0)
    return Bad("settings: rounds and cycles cannot be negative");
  if (s.bye_points() < 0 || s.bye_points() > 2) return Bad("settings.byePoints: 0, 1 or 2");
  if (!s.egf_class().empty() && s.egf_class() != "A" && s.egf_class() != "B" &&
      s.egf_class() != "C" && s.egf_class() != "D") {
    return Bad("settings.egfClass: A, B, C or D (the EGF tournament class)");
  }
  if (s.adjusted_time_minutes() < 0) return Bad("settings.adjustedTimeMinutes cannot be negative");
  if (s.ruleset() == "cn-1988" && s.teams() && s.system() == v1::TournamentSettings::SWISS &&
      s.swiss_method() == v1::TournamentSettings::POINTS_THEN_OPPONENTS) {
    return Bad(
        "settings.swissMethod: the 1988 rules rank a Swiss team event by 总得分 only "
        "(cn-1988/28: 团体成绩根据总得分的高低区分名次): TOTAL_SCORE");
  }
  if (absl::Status team = CheckTeamSettings(s); !team.ok()) return team;
  absl::StatusOr<std::string> rules = PinnedStandingsRules(c);
  if (!rules.ok()) return rules.status();
  t->set_standings_rules(*std::move(rules));
  t->set_name(absl::StrCat("tournaments/", c.tournament_id()));
  t->set_tournament_id(c.tournament_id());
  t->set_title(c.title());
  *t->mutable_settings() = s;
  return absl::OkStatus();
}

absl::Status OnTeamAdded(const v1::TeamAdded& a, Tournament* t) {
  if (!t->settings().teams()) return Bad("teamAdded: this is not a team event");
  if (!IsValidId(a.team().id()))
    return Bad(absl::StrCat("team id '", a.team().id(), "' is not valid"));
  if (FindTeam(*t, a.team().id()) != nullptr) {
    return Bad(absl::StrCat("team '", a.team().id(), "' already exists"));
  }
  *t->add_teams() = a.team();
  return absl::OkStatus();
}

bool AllDigits(absl::string_view s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// What every player record must be, when added or corrected.
absl::Status CheckPlayerRecord(const v1::TournamentPlayer& p) {
  if (p.name().empty()) return Bad(absl::StrCat("player '", p.id(), "': a name is required"));
  const std::string& c = p.country();
  if (!c.empty() && (c.size() != 2 || !absl::ascii_isalpha(static_cast<unsigned char>(c[0])) ||
                     !absl::ascii_isalpha(static_cast<unsigned char>(c[1])))) {
    return Bad(absl::StrCat("player '", p.id(), "': country \"", c,
                            "\" is not a 2-letter ISO 3166 code (CN, FR)"));
  }
  if (!p.egf_pin().empty() && (p.egf_pin().size() > 8 || !AllDigits(p.egf_pin()))) {
    return Bad(absl::StrCat("player '", p.id(), "': EGD PIN \"", p.egf_pin(),
                            "\" is not a number of at most 8 digits"));
  }
  if (!p.aga_id().empty() && (p.aga_id().size() > 8 || !AllDigits(p.aga_id()))) {
    return Bad(absl::StrCat("player '", p.id(), "': AGA id \"", p.aga_id(),
                            "\" is not a number of at most 8 digits"));
  }
  return absl::OkStatus();
}

absl::Status OnPlayerAdded(const v1::PlayerAdded& a, Tournament* t) {
  const v1::TournamentPlayer& p = a.player();
  if (!IsValidId(p.id())) return Bad(absl::StrCat("player id '", p.id(), "' is not valid"));
  if (FindPlayer(*t, p.id()) != nullptr)
    return Bad(absl::StrCat("player '", p.id(), "' already exists"));
  if (absl::Status s = CheckPlayerRecord(p); !s.ok()) return s;
  if (!IsPrintableAscii(p.romanized_family_name()) || !IsPrintableAscii(p.romanized_given_name())) {
    return Bad(absl::StrCat("player '", p.id(),
                            "': the romanized name is Latin letters (printable ASCII) only"));
  }
  if (p.romanized_family_name().empty() && !p.romanized_given_name().empty()) {
    return Bad(absl::StrCat("player '", p.id(),
                            "': a romanized given name needs the romanized family name"));
  }
  if (p.board() < 0)
    return Bad(absl::StrCat("player '", p.id(), "': board must be 1 or more (0: none fixed)"));
  if (t->settings().teams()) {
    if (!p.team().empty() && FindTeam(*t, p.team()) == nullptr) {
      return Bad(absl::StrCat("player '", p.id(), "': team '", p.team(), "' does not exist"));
    }
    if (p.team().empty() && p.board() != 0) {
      return Bad(absl::StrCat("player '", p.id(), "': a board belongs to a team member"));
    }
    for (const v1::TournamentPlayer& q : t->players()) {
      if (p.board() != 0 && q.team() == p.team() && q.board() == p.board()) {
        return Bad(absl::StrCat("player '", p.id(), "': board ", p.board(), " of team '", p.team(),
                                "' is already '", q.id(), "'"));
      }
    }
  } else if (!p.team().empty() || p.board() != 0) {
    return Bad(absl::StrCat("player '", p.id(), "': teams and boards belong to team events"));
  }
  *t->add_players() = p;
  return absl::OkStatus();
}

// Why round `r` cannot be paired as a round, or OK: its number, or a round
// paired already, or nothing in it.
absl::Status CheckRound(const v1::TournamentRound& r, const std::string& where,
                        const Tournament& t) {
  if (r.round() < 1) return Bad("round: rounds are numbered from 1");
  if (t.settings().rounds() > 0 && r.round() > t.settings().rounds()) {
    return Bad(absl::StrCat(where, ": the tournament has ", t.settings().rounds(), " rounds"));
  }
  for (const v1::TournamentRound& done : t.rounds()) {
    if (done.round() == r.round()) {
      return absl::FailedPreconditionError(absl::StrCat(where, " is already paired"));
    }
  }
  if (r.pairings().empty() && r.byes().empty()) return Bad(absl::StrCat(where, ": no pairings"));
  return absl::OkStatus();
}

// Why a pairing's entered result and team board are bad input, or OK.
absl::Status CheckPairingEntries(const v1::Pairing& p, const std::string& at, bool teams) {
  if (!p.replayed_game_ids().empty())
    return Bad(absl::StrCat(at, ": replays are scheduled, not paired"));
  if (!ValidOutcomeEntry(p.entered_outcome())) {
    return Bad(
        absl::StrCat(at, ": an entered result cannot be REPLAY (pair the replay's game instead)"));
  }
  if (p.entered_by_default() && p.entered_outcome() == v1::Result::OUTCOME_UNSPECIFIED) {
    return Bad(absl::StrCat(at, ": byDefault without a result"));
  }
  if (p.team_board() < 0) return Bad(absl::StrCat(at, ": teamBoard must be 1 or more (0: none)"));
  if (!teams && p.team_board() != 0) {
    return Bad(absl::StrCat(at, ": teamBoard belongs to team events"));
  }
  return absl::OkStatus();
}

// The players round `r` gives a bye. A team event's bye may name the team:
// its lineup for the round has it (matches.h), or, when it has none, its
// players with a board.
std::vector<std::string> ByePlayers(const v1::TournamentRound& r, const Tournament& t) {
  std::vector<std::string> byes;
  for (const std::string& id : r.byes()) {
    if (t.settings().teams() && FindPlayer(t, id) == nullptr && FindTeam(t, id) != nullptr) {
      absl::StatusOr<std::vector<std::string>> lineup = TeamLineup(t, r.round(), id);
      if (lineup.ok()) {
        byes.insert(byes.end(), lineup->begin(), lineup->end());
        continue;
      }
      for (const v1::TournamentPlayer& p : t.players()) {
        if (p.team() == id && p.board() > 0) byes.push_back(p.id());
      }
      continue;
    }
    byes.push_back(id);
  }
  return byes;
}

absl::Status OnRoundPaired(const v1::RoundPaired& e, Tournament* t) {
  const v1::TournamentRound& r = e.round();
  const std::string where = absl::StrCat("round ", r.round());
  if (absl::Status s = CheckRound(r, where, *t); !s.ok()) return s;
  const bool swiss = t->settings().system() == v1::TournamentSettings::SWISS;
  std::set<std::string> seated;
  std::set<int> boards;
  std::set<std::string> games;
  auto seat = [&](const std::string& id) -> absl::Status {
    if (FindPlayer(*t, id) == nullptr) return Bad(absl::StrCat(where, ": no player '", id, "'"));
    if (!seated.insert(id).second)
      return Bad(absl::StrCat(where, ": player '", id, "' is paired twice"));
    const v1::PlayerWithdrawn* w = FindWithdrawal(*t, id);
    // 28.3 is the individual Swiss's; in a team event (28.4, 1988 29.4) the
    // withdrawn player's board is still paired, and lost by default.
    if (swiss && !t->settings().teams() && w != nullptr && r.round() > w->after_round()) {
      return absl::FailedPreconditionError(absl::StrCat(where, ": '", id, "' withdrew after round ",
                                                        w->after_round(),
                                                        "; art. 28.3: no more pairings"));
    }
    return absl::OkStatus();
  };
  for (const v1::Pairing& p : r.pairings()) {
    const std::string at = absl::StrCat(where, " board ", p.board());
    if (p.round() != 0 && p.round() != r.round())
      return Bad(absl::StrCat(at, ": pairing names round ", p.round()));
    if (p.board() < 1) return Bad(absl::StrCat(where, ": boards are numbered from 1"));
    if (!boards.insert(p.board()).second) return Bad(absl::StrCat(at, " is used twice"));
    if (p.black() == p.white()) return Bad(absl::StrCat(at, ": a player cannot meet themselves"));
    if (absl::Status s = seat(p.black()); !s.ok()) return s;
    if (absl::Status s = seat(p.white()); !s.ok()) return s;
    if (p.handicap() < 0 || p.handicap() > 9) return Bad(absl::StrCat(at, ": handicap 0 to 9"));
    if (!p.game_id().empty()) {
      if (p.game_id().size() > 128) return Bad(absl::StrCat(at, ": gameId too long"));
      if (GameIdUsed(*t, p.game_id()) || !games.insert(p.game_id()).second) {
        return Bad(absl::StrCat(at, ": game '", p.game_id(), "' already decides another pairing"));
      }
    }
    if (absl::Status s = CheckPairingEntries(p, at, t->settings().teams()); !s.ok()) return s;
  }
  std::vector<std::string> byes = ByePlayers(r, *t);
  for (const std::string& id : byes) {
    if (absl::Status s = seat(id); !s.ok()) return s;
  }
  v1::TournamentRound* added = t->add_rounds();
  *added = r;
  added->clear_byes();
  for (std::string& id : byes) added->add_byes(std::move(id));
  for (v1::Pairing& p : *added->mutable_pairings()) p.set_round(r.round());
  std::sort(added->mutable_pairings()->begin(), added->mutable_pairings()->end(),
            [](const v1::Pairing& a, const v1::Pairing& b) { return a.board() < b.board(); });
  std::sort(t->mutable_rounds()->begin(), t->mutable_rounds()->end(),
            [](const v1::TournamentRound& a, const v1::TournamentRound& b) {
              return a.round() < b.round();
            });
  return absl::OkStatus();
}

absl::Status OnReplay(const v1::ReplayScheduled& e, Tournament* t) {
  const std::string at = absl::StrCat("round ", e.round(), " board ", e.board());
  v1::Pairing* found = nullptr;
  for (v1::TournamentRound& r : *t->mutable_rounds()) {
    for (v1::Pairing& p : *r.mutable_pairings()) {
      if (p.round() == e.round() && p.board() == e.board()) found = &p;
    }
  }
  if (found == nullptr) return Bad(absl::StrCat(at, " is not paired"));
  if (found->game_id().empty()) {
    return absl::FailedPreconditionError(absl::StrCat(at, " has no game to replay"));
  }
  if (e.game_id().empty()) return Bad(absl::StrCat(at, ": the replay's gameId is required"));
  if (GameIdUsed(*t, e.game_id())) {
    return Bad(absl::StrCat(at, ": game '", e.game_id(), "' already decides a pairing"));
  }
  found->add_replayed_game_ids(found->game_id());
  found->set_game_id(e.game_id());
  return absl::OkStatus();
}

absl::Status OnRoundStarted(const v1::RoundStarted& e, Tournament* t) {
  const std::string where = absl::StrCat("roundStarted: round ", e.round());
  v1::TournamentRound* round = nullptr;
  for (v1::TournamentRound& r : *t->mutable_rounds()) {
    if (r.round() == e.round()) round = &r;
  }
  if (round == nullptr) return Bad(absl::StrCat(where, " is not paired"));
  if (e.games().empty()) return Bad(absl::StrCat(where, ": no games"));
  std::set<std::string> games;
  for (const v1::RoundStarted::BoardGame& g : e.games()) {
    const std::string at = absl::StrCat(where, " board ", g.board());
    v1::Pairing* found = nullptr;
    for (v1::Pairing& p : *round->mutable_pairings()) {
      if (p.board() == g.board()) found = &p;
    }
    if (found == nullptr) return Bad(absl::StrCat(at, " is not paired"));
    // A board that names its game keeps it: a start attaches, never moves.
    if (!found->game_id().empty()) {
      return absl::FailedPreconditionError(
          absl::StrCat(at, " already names game '", found->game_id(), "'"));
    }
    if (g.game_id().empty() || g.game_id().size() > 128) {
      return Bad(absl::StrCat(at, ": a gameId of 1 to 128 bytes"));
    }
    if (GameIdUsed(*t, g.game_id()) || !games.insert(g.game_id()).second) {
      return Bad(absl::StrCat(at, ": game '", g.game_id(), "' already decides another pairing"));
    }
  }
  for (const v1::RoundStarted::BoardGame& g : e.games()) {
    for (v1::Pairing& p : *round->mutable_pairings()) {
      if (p.board() == g.board()) p.set_game_id(g.game_id());
    }
  }
  return absl::OkStatus();
}

absl::Status OnTieBreak(const v1::TieBreakDecided& d, Tournament* t) {
  if (d.method() == v1::TieBreakDecided::METHOD_UNSPECIFIED) {
    return Bad("tieBreakDecided.method: EXTRA_GAME or LOTS");
  }
  if (d.order_size() < 2) return Bad("tieBreakDecided.order: at least two entrants");
  std::set<std::string> seen;
  for (const std::string& id : d.order()) {
    const bool known =
        t->settings().teams() ? FindTeam(*t, id) != nullptr : FindPlayer(*t, id) != nullptr;
    if (!known)
      return Bad(absl::StrCat("tieBreakDecided.order: no ",
                              t->settings().teams() ? "team" : "player", " '", id, "'"));
    if (!seen.insert(id).second)
      return Bad(absl::StrCat("tieBreakDecided.order: '", id, "' twice"));
  }
  // The team text's C is an extra match only ("可安排加赛": 2002 art. 27
  // 团体赛 3, 1988 art. 28 二 三); lots are the individual events' (个人赛 C).
  if (d.method() == v1::TieBreakDecided::LOTS && t->settings().teams()) {
    return Bad(
        "tieBreakDecided: a team event's tie is broken by an extra match (加赛: cn-2002/27 "
        "团体赛 3, cn-1988/28 二 三), not by lots");
  }
  if (d.method() == v1::TieBreakDecided::LOTS && d.game_ids_size() > 0) {
    return Bad("tieBreakDecided: lots are drawn, not played (no gameIds)");
  }
  for (const std::string& g : d.game_ids()) {
    if (g.empty() || GameIdUsed(*t, g))
      return Bad(absl::StrCat("tieBreakDecided: game '", g, "' is empty or already used"));
  }
  *t->add_tie_breaks() = d;
  return absl::OkStatus();
}

absl::Status OnWithdrawn(const v1::PlayerWithdrawn& w, Tournament* t) {
  if (FindPlayer(*t, w.player()) == nullptr)
    return Bad(absl::StrCat("playerWithdrawn: no player '", w.player(), "'"));
  if (FindWithdrawal(*t, w.player()) != nullptr) {
    return absl::FailedPreconditionError(absl::StrCat("'", w.player(), "' has already withdrawn"));
  }
  if (w.after_round() < 0) return Bad("playerWithdrawn.afterRound cannot be negative");
  if (t->settings().rounds() > 0 && w.after_round() > t->settings().rounds()) {
    return Bad(absl::StrCat("playerWithdrawn.afterRound: the tournament has ",
                            t->settings().rounds(), " rounds"));
  }
  *t->add_withdrawals() = w;
  return absl::OkStatus();
}

absl::Status OnLineupSet(const v1::LineupSet& l, Tournament* t) {
  if (absl::Status s = CheckLineup(*t, l); !s.ok()) return s;
  *t->add_lineups() = l;
  return absl::OkStatus();
}

}  // namespace

const v1::TournamentPlayer* FindPlayer(const v1::Tournament& t, absl::string_view id) {
  for (const v1::TournamentPlayer& p : t.players()) {
    if (p.id() == id) return &p;
  }
  return nullptr;
}

const v1::TournamentTeam* FindTeam(const v1::Tournament& t, absl::string_view id) {
  for (const v1::TournamentTeam& team : t.teams()) {
    if (team.id() == id) return &team;
  }
  return nullptr;
}

const v1::Pairing* FindPairing(const v1::Tournament& t, int round, int board) {
  for (const v1::TournamentRound& r : t.rounds()) {
    for (const v1::Pairing& p : r.pairings()) {
      if (p.round() == round && p.board() == board) return &p;
    }
  }
  return nullptr;
}

absl::Status CheckNotTeamMates(const v1::Tournament& t, const v1::Pairing& p) {
  if (!t.settings().teams()) return absl::OkStatus();
  const v1::TournamentPlayer* b = FindPlayer(t, p.black());
  const v1::TournamentPlayer* w = FindPlayer(t, p.white());
  if (b != nullptr && w != nullptr && !b->team().empty() && b->team() == w->team()) {
    return Bad(absl::StrCat("round ", p.round(), " board ", p.board(), ": '", p.black(), "' and '",
                            p.white(), "' are team-mates"));
  }
  return absl::OkStatus();
}

const v1::PlayerWithdrawn* FindWithdrawal(const v1::Tournament& t, absl::string_view player) {
  for (const v1::PlayerWithdrawn& w : t.withdrawals()) {
    if (w.player() == player) return &w;
  }
  return nullptr;
}

// Art. 28.2 owes every game of a round robin, paired or not, so its
// standings hold a line per game: bounded here, as the record is by its
// bytes, so that what a reader can make the server compute is too.
absl::Status CheckRoundRobinSize(const v1::Tournament& t) {
  const int64_t players = t.players_size();
  const int64_t games = players * (players - 1) / 2;  // per cycle
  const int64_t cycles = std::max(1, t.settings().cycles());
  if (t.settings().system() == v1::TournamentSettings::ROUND_ROBIN && !t.settings().teams() &&
      games > 0 && cycles > kMaxRoundRobinGames / games) {
    return Bad(absl::StrCat("a round robin of ", players, " players and ", cycles,
                            " cycle(s) has more than ", kMaxRoundRobinGames, " games"));
  }
  return absl::OkStatus();
}

absl::Status Apply(const v1::TournamentEvent& event, v1::Tournament* t) {
  const bool created = !t->tournament_id().empty();
  if (event.kind_case() == v1::TournamentEvent::KIND_NOT_SET) return Bad("an event with no kind");
  if (event.has_created() == created) {
    return created ? absl::FailedPreconditionError("the tournament already exists")
                   : Bad("the first event must be `created`");
  }
  // A player or a team is checked whole and only then appended to its list,
  // so its event is applied in place: a copy of the record for each of them
  // made adding N players cost N copies of a record growing to 2 MiB (an
  // outside probe's 12,000 players held a core for minutes before the
  // record's bound refused them).
  if (event.has_player_added() || event.has_team_added()) {
    absl::Status s = event.has_player_added() ? OnPlayerAdded(event.player_added(), t)
                                              : OnTeamAdded(event.team_added(), t);
    if (!s.ok()) return s;
    if (s = CheckRoundRobinSize(*t); !s.ok()) {
      if (event.has_player_added()) t->mutable_players()->RemoveLast();
      return s;
    }
    t->set_revision(t->revision() + 1);
    return absl::OkStatus();
  }
  v1::Tournament next = *t;
  absl::Status s;
  switch (event.kind_case()) {
    case v1::TournamentEvent::kCreated:
      s = OnCreated(event.created(), &next);
      break;
    case v1::TournamentEvent::kPlayerAdded:
    case v1::TournamentEvent::kTeamAdded:
      break;  // applied in place, above
    case v1::TournamentEvent::kRoundPaired:
      s = OnRoundPaired(event.round_paired(), &next);
      break;
    case v1::TournamentEvent::kReplayScheduled:
      s = OnReplay(event.replay_scheduled(), &next);
      break;
    case v1::TournamentEvent::kRoundStarted:
      s = OnRoundStarted(event.round_started(), &next);
      break;
    case v1::TournamentEvent::kTieBreakDecided:
      s = OnTieBreak(event.tie_break_decided(), &next);
      break;
    case v1::TournamentEvent::kPlayerWithdrawn:
      s = OnWithdrawn(event.player_withdrawn(), &next);
      break;
    case v1::TournamentEvent::kLineupSet:
      s = OnLineupSet(event.lineup_set(), &next);
      break;
    case v1::TournamentEvent::kCorrected:
      s = ApplyCorrection(event, &next);
      break;
    case v1::TournamentEvent::kMigrated:  // where the events before it came from
      break;
    case v1::TournamentEvent::kStandingsRecorded:  // derived: `verify` derives it again
      if (event.standings_recorded().round() < 1) {
        s = Bad("standingsRecorded: rounds are numbered from 1");
      }
      break;
    case v1::TournamentEvent::KIND_NOT_SET:
      break;
  }
  if (!s.ok()) return s;
  if (s = CheckRoundRobinSize(next); !s.ok()) return s;
  next.set_revision(t->revision() + 1);
  *t = std::move(next);
  return absl::OkStatus();
}

absl::StatusOr<v1::Tournament> Fold(const std::vector<v1::TournamentEvent>& events) {
  v1::Tournament t;
  for (size_t i = 0; i < events.size(); ++i) {
    if (absl::Status s = Apply(events[i], &t); !s.ok()) {
      return absl::Status(s.code(), absl::StrCat("event ", i + 1, ": ", s.message()));
    }
  }
  return t;
}

}  // namespace arbiter::tournament
