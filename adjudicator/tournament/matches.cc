#include "adjudicator/tournament/matches.h"

#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "adjudicator/tournament/fold.h"
#include "adjudicator/tournament/scoring.h"

namespace arbiter::tournament {
namespace {

using v1::TournamentSettings;

absl::Status BadMatch(absl::string_view why) { return absl::InvalidArgumentError(why); }

bool RoundLineups(const v1::Tournament& t) {
  return t.settings().team_system() == TournamentSettings::ROUND_LINEUP;
}

bool Withdrawn(const v1::Tournament& t, const std::string& id, int round) {
  const v1::PlayerWithdrawn* w = FindWithdrawal(t, id);
  return w != nullptr && round > w->after_round();
}

// The team's players with a registered board, board 1 first, after checking
// the boards run 1, 2, 3... without a gap.
absl::StatusOr<std::vector<const v1::TournamentPlayer*>> RegisteredBoards(const v1::Tournament& t,
                                                                          absl::string_view team) {
  std::vector<const v1::TournamentPlayer*> out;
  for (const v1::TournamentPlayer& p : t.players()) {
    if (p.team() == team && p.board() > 0) out.push_back(&p);
  }
  std::sort(out.begin(), out.end(),
            [](const auto* a, const auto* b) { return a->board() < b->board(); });
  for (size_t i = 0; i < out.size(); ++i) {
    if (out[i]->board() != static_cast<int>(i) + 1) {
      return BadMatch(absl::StrCat("team '", team, "': no player on board ", i + 1,
                                   " (the boards run 1, 2, 3... without a gap: 27 团体赛 compares "
                                   "board by board)"));
    }
  }
  return out;
}

// The players a team fields in a match: the setting, else its registered boards.
absl::StatusOr<int> MatchBoards(const v1::Tournament& t, absl::string_view team) {
  if (t.settings().match_boards() > 0) return t.settings().match_boards();
  absl::StatusOr<std::vector<const v1::TournamentPlayer*>> boards = RegisteredBoards(t, team);
  if (!boards.ok()) return boards.status();
  if (boards->empty()) {
    return BadMatch(absl::StrCat("team '", team, "' has no player on a board"));
  }
  return static_cast<int>(boards->size());
}

const v1::LineupSet* NamedLineup(const v1::Tournament& t, int round, absl::string_view team) {
  const v1::LineupSet* found = nullptr;
  for (const v1::LineupSet& l : t.lineups()) {
    if (l.round() == round && l.team() == team) found = &l;  // the last one named
  }
  return found;
}

bool Paired(const v1::Tournament& t, int round) {
  for (const v1::TournamentRound& r : t.rounds()) {
    if (r.round() == round) return true;
  }
  return false;
}

// A pairing's match board for one of its players: `team_board`, else theirs.
int BoardOf(const v1::Pairing& p, const v1::TournamentPlayer& player) {
  return p.team_board() > 0 ? p.team_board() : player.board();
}

}  // namespace

absl::StatusOr<std::vector<std::string>> TeamLineup(const v1::Tournament& t, int round,
                                                    absl::string_view team) {
  if (FindTeam(t, team) == nullptr) return BadMatch(absl::StrCat("no team '", team, "'"));
  if (const v1::LineupSet* named = NamedLineup(t, round, team)) {
    return std::vector<std::string>(named->players().begin(), named->players().end());
  }
  if (RoundLineups(t)) {
    return absl::FailedPreconditionError(
        absl::StrCat("team '", team, "' has no lineup for round ", round,
                     " (临场出人制, 25.2: 赛前由教练员排定出场名单): tournament lineup --round ",
                     round, " --team ", team, " P1,P2,..."));
  }
  absl::StatusOr<int> n = MatchBoards(t, team);
  if (!n.ok()) return n.status();
  absl::StatusOr<std::vector<const v1::TournamentPlayer*>> boards = RegisteredBoards(t, team);
  if (!boards.ok()) return boards.status();
  if (static_cast<int>(boards->size()) < *n) {
    return BadMatch(absl::StrCat("team '", team, "' has ", boards->size(),
                                 " players on boards; a team fields ", *n,
                                 " (25.2: 每队人数相等)"));
  }
  std::vector<std::string> out;
  for (int i = 0; i < *n; ++i) out.push_back((*boards)[i]->id());
  return out;
}

absl::Status CheckLineup(const v1::Tournament& t, const v1::LineupSet& l) {
  const std::string where = absl::StrCat("lineup of team '", l.team(), "' for round ", l.round());
  if (!t.settings().teams()) return BadMatch(absl::StrCat(where, ": this is not a team event"));
  const TournamentSettings::TeamSystem system = t.settings().team_system();
  if (system != TournamentSettings::TEAM_SYSTEM_UNSPECIFIED &&
      system != TournamentSettings::FIXED_BOARDS && system != TournamentSettings::ROUND_LINEUP) {
    return BadMatch(absl::StrCat(where, ": the tournament's team system has no lineups"));
  }
  if (FindTeam(t, l.team()) == nullptr)
    return BadMatch(absl::StrCat(where, ": no team '", l.team(), "'"));
  if (l.round() < 1) return BadMatch(absl::StrCat(where, ": rounds are numbered from 1"));
  if (t.settings().rounds() > 0 && l.round() > t.settings().rounds()) {
    return BadMatch(absl::StrCat(where, ": the tournament has ", t.settings().rounds(), " rounds"));
  }
  if (Paired(t, l.round())) {
    return absl::FailedPreconditionError(
        absl::StrCat(where, ": round ", l.round(),
                     " is already paired; a lineup is named before its round (25.2: 赛前)"));
  }
  absl::StatusOr<int> n = MatchBoards(t, l.team());
  if (!n.ok())
    return absl::Status(n.status().code(), absl::StrCat(where, ": ", n.status().message()));
  if (l.players_size() != *n) {
    return BadMatch(absl::StrCat(where, ": ", l.players_size(), " players; a team fields ", *n,
                                 " (25.2: 每队人数相等)"));
  }
  std::set<std::string> seen;
  int last_board = 0;
  for (const std::string& id : l.players()) {
    const v1::TournamentPlayer* p = FindPlayer(t, id);
    if (p == nullptr) return BadMatch(absl::StrCat(where, ": no player '", id, "'"));
    if (p->team() != l.team()) {
      return BadMatch(
          absl::StrCat(where, ": '", id, "' plays for ",
                       p->team().empty() ? "no team" : absl::StrCat("team '", p->team(), "'"),
                       " (25.2: a team fields its own players)"));
    }
    if (!seen.insert(id).second) return BadMatch(absl::StrCat(where, ": '", id, "' twice"));
    if (Withdrawn(t, id, l.round())) {
      return BadMatch(absl::StrCat(where, ": '", id, "' withdrew after round ",
                                   FindWithdrawal(t, id)->after_round(), " (",
                                   WithdrawalClause(t, "team"), ")"));
    }
    if (system != TournamentSettings::ROUND_LINEUP) {
      if (p->board() == 0) {
        return BadMatch(absl::StrCat(
            where, ": '", id, "' has no registered board (分台定人制: the boards are registered)"));
      }
      if (p->board() <= last_board) {
        return BadMatch(absl::StrCat(where, ": '", id, "' (board ", p->board(), ") after board ",
                                     last_board,
                                     ": 分台定人制 keeps the registered order (25.2: "
                                     "台次一经排定，比赛中不得更改)"));
      }
      last_board = p->board();
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<v1::TournamentRound> PairMatches(
    const v1::Tournament& t, int round,
    const google::protobuf::RepeatedPtrField<v1::TeamMatch>& matches,
    const google::protobuf::RepeatedPtrField<std::string>& byes) {
  const std::string where = absl::StrCat("round ", round);
  if (!t.settings().teams())
    return BadMatch(absl::StrCat(where, ": matches belong to team events"));
  std::set<std::string> in_round;
  for (const std::string& id : byes) {
    if (FindTeam(t, id) != nullptr) in_round.insert(id);
  }
  const TournamentSettings::BoardColours colours = t.settings().board_colours();
  v1::TournamentRound out;
  out.set_round(round);
  int table = 0;
  for (const v1::TeamMatch& m : matches) {
    const std::string match =
        absl::StrCat(where, " match ", m.first_team(), " v ", m.second_team());
    if (m.first_team() == m.second_team()) {
      return BadMatch(absl::StrCat(match, ": a team cannot meet itself"));
    }
    std::vector<std::string> lineup[2];
    int side = 0;
    for (const std::string& team : {m.first_team(), m.second_team()}) {
      if (FindTeam(t, team) == nullptr)
        return BadMatch(absl::StrCat(match, ": no team '", team, "'"));
      if (!in_round.insert(team).second) {
        return BadMatch(
            absl::StrCat(match, ": team '", team, "' is in another match or has the bye"));
      }
      absl::StatusOr<std::vector<std::string>> l = TeamLineup(t, round, team);
      if (!l.ok())
        return absl::Status(l.status().code(), absl::StrCat(match, ": ", l.status().message()));
      lineup[side++] = *std::move(l);
    }
    if (lineup[0].size() != lineup[1].size()) {
      return BadMatch(absl::StrCat(match, ": ", lineup[0].size(), " boards against ",
                                   lineup[1].size(), " (25.2: 每队人数相等)"));
    }
    for (size_t k = 0; k < lineup[0].size(); ++k) {
      const int board = static_cast<int>(k) + 1;
      const bool first_black = colours == TournamentSettings::ALL_BLACK
                                   ? true
                                   : (colours == TournamentSettings::ODD_WHITE) == (board % 2 == 0);
      v1::Pairing* p = out.add_pairings();
      p->set_round(round);
      p->set_board(++table);
      p->set_team_board(board);
      p->set_black(lineup[first_black ? 0 : 1][k]);
      p->set_white(lineup[first_black ? 1 : 0][k]);
    }
  }
  *out.mutable_byes() = byes;
  return out;
}

absl::Status CheckMatches(const v1::Tournament& t, const v1::TournamentRound& r) {
  if (!t.settings().teams()) return absl::OkStatus();
  const std::string where = absl::StrCat("round ", r.round());
  std::map<std::string, std::string> opponent;  // team -> the team it meets
  // (first team, second team) by name order -> board -> table.
  std::map<std::pair<std::string, std::string>, std::map<int, int>> boards;
  for (const v1::Pairing& p : r.pairings()) {
    const v1::TournamentPlayer* b = FindPlayer(t, p.black());
    const v1::TournamentPlayer* w = FindPlayer(t, p.white());
    if (b == nullptr || w == nullptr || b->team().empty() || w->team().empty() ||
        b->team() == w->team()) {
      continue;  // not a match's board: the fold and CheckNotTeamMates say why
    }
    const std::string at = absl::StrCat(where, " table ", p.board());
    for (const auto& [mine, theirs] : {std::pair{b, w}, std::pair{w, b}}) {
      auto [it, added] = opponent.emplace(mine->team(), theirs->team());
      if (!added && it->second != theirs->team()) {
        return BadMatch(absl::StrCat(at, ": '", theirs->id(), "' of team '", theirs->team(),
                                     "' meets '", mine->id(), "' of team '", mine->team(),
                                     "', whose match is against '", it->second,
                                     "': a match is between two teams (25.2)"));
      }
    }
    const int bb = BoardOf(p, *b), wb = BoardOf(p, *w);
    if (bb == 0 || wb == 0) continue;
    if (bb != wb) {
      return BadMatch(
          absl::StrCat(at, ": '", b->id(), "' (board ", bb, " of '", b->team(), "') v '", w->id(),
                       "' (board ", wb, " of '", w->team(),
                       "'): crossed boards; a match pairs board k against board k (25.2: "
                       "台次一经排定，比赛中不得更改)"));
    }
    const bool black_first = b->team() < w->team();
    auto& match =
        boards[{black_first ? b->team() : w->team(), black_first ? w->team() : b->team()}];
    if (!match.emplace(bb, p.board()).second) {
      return BadMatch(absl::StrCat(at, ": board ", bb, " of the match '", b->team(), "' v '",
                                   w->team(), "' is already table ", match[bb]));
    }
  }
  for (const auto& [teams, by_board] : boards) {
    int expected = 1;
    for (const auto& [board, table] : by_board) {
      if (board != expected) {
        std::vector<int> listed;
        for (const auto& [b, unused] : by_board) listed.push_back(b);
        return BadMatch(absl::StrCat(where, " match '", teams.first, "' v '", teams.second,
                                     "': boards ", absl::StrJoin(listed, ", "), ": board ",
                                     expected, " is missing (27 团体赛 compares board by board)"));
      }
      ++expected;
    }
  }
  return absl::OkStatus();
}

std::string ForfeitedBoard(const v1::Tournament& t, const v1::Pairing& p) {
  if (!t.settings().teams()) return "";
  std::vector<std::string> gone;
  for (const std::string& id : {p.black(), p.white()}) {
    if (Withdrawn(t, id, p.round())) {
      gone.push_back(
          absl::StrCat(id, " withdrew after round ", FindWithdrawal(t, id)->after_round()));
    }
  }
  if (gone.empty()) return "";
  // The words are the applied text's: 2002 28.4 forfeits the unplayed board,
  // 1988 29.4 counts it as the opponent's win (scoring.cc TeamUnplayed).
  const bool y1988 = Ruleset(t) == "cn-1988";
  return absl::StrCat(
      absl::StrJoin(gone, "; "), " (", WithdrawalClause(t, "team"),
      y1988 ? ": counted as the opponent's win, no game)" : ": lost by default, no game)");
}

}  // namespace arbiter::tournament
