#include "adjudicator/tournament/standings.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <numeric>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "adjudicator/tournament/fold.h"
#include "adjudicator/tournament/match_scores.h"
#include "adjudicator/tournament/matches.h"
#include "adjudicator/tournament/names.h"
#include "adjudicator/tournament/scoring.h"
#include "adjudicator/tournament/standings_rules.h"

namespace arbiter::tournament {
namespace {

using v1::ScoredPairing;
using v1::Standing;
using v1::TournamentSettings;

// One entrant on its way to a rank: its criteria, higher is better, in the
// order art. 27 compares them, with the name each is reported under.
struct Entry {
  Standing standing;
  std::vector<int64_t> keys;
  bool unranked = false;
};

// Sorts by the criteria, then applies the recorded C decisions to groups
// still level, and numbers the ranks (shared where still level).
void Rank(std::vector<Entry>& entries, const std::vector<std::string>& key_names,
          const v1::Tournament& t, google::protobuf::RepeatedPtrField<Standing>* out) {
  std::stable_sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    if (a.unranked != b.unranked) return b.unranked;
    if (a.keys != b.keys) return a.keys > b.keys;
    return a.standing.id() < b.standing.id();
  });
  // C: an extra game or lots ordered a group that is still level.
  std::vector<int> c_place(entries.size(), -1);
  std::vector<std::string> c_method(entries.size());
  for (size_t i = 0; i < entries.size();) {
    size_t j = i + 1;
    while (j < entries.size() && !entries[i].unranked && !entries[j].unranked &&
           entries[j].keys == entries[i].keys)
      ++j;
    if (j - i >= 2) {
      for (auto d = t.tie_breaks().rbegin(); d != t.tie_breaks().rend(); ++d) {
        std::vector<int> place;
        for (size_t k = i; k < j; ++k) {
          auto at = std::find(d->order().begin(), d->order().end(), entries[k].standing.id());
          if (at == d->order().end()) break;
          place.push_back(static_cast<int>(at - d->order().begin()));
        }
        if (place.size() != j - i) continue;
        for (size_t k = i; k < j; ++k) {
          c_place[k] = place[k - i];
          c_method[k] = absl::StrCat("C:", v1::TieBreakDecided::Method_Name(d->method()));
        }
        std::vector<std::pair<int, Entry>> group;
        for (size_t k = i; k < j; ++k) group.emplace_back(c_place[k], std::move(entries[k]));
        std::sort(group.begin(), group.end(),
                  [](const auto& a, const auto& b) { return a.first < b.first; });
        for (size_t k = i; k < j; ++k) entries[k] = std::move(group[k - i].second);
        break;
      }
    }
    i = j;
  }
  int rank = 0;
  for (size_t i = 0; i < entries.size(); ++i) {
    Entry& e = entries[i];
    Standing& s = e.standing;
    if (e.unranked) {
      s.set_rank(0);
      *out->Add() = s;
      continue;
    }
    const Entry* prev = i == 0 || entries[i - 1].unranked ? nullptr : &entries[i - 1];
    if (prev == nullptr) {
      rank = 1;
    } else if (prev->keys != e.keys) {
      rank = static_cast<int>(i) + 1;
      size_t k = 0;
      while (k < e.keys.size() && prev->keys[k] == e.keys[k]) ++k;
      if (k > 0 && k < key_names.size()) s.set_decided_by(key_names[k]);
    } else if (c_place[i] >= 0) {
      rank = static_cast<int>(i) + 1;
      s.set_decided_by(c_method[i]);
    }  // else: still level, the rank is shared
    s.set_rank(rank);
    *out->Add() = s;
  }
}

struct Record {
  std::string opponent;
  int mine = 0;
  int theirs = 0;
  // Neither won, drawn nor lost: a NO_RESULT game under tournament-2026.2
  // (standings_rules.h). It still counts as met (the opponents' points).
  bool untallied = false;
};

// A record in the wins, draws or losses: 2 a win, 1-1 a draw, else a loss.
void Tally(const Record& r, Standing* s) {
  if (r.untallied) return;
  if (r.mine == 2)
    s->set_wins(s->wins() + 1);
  else if (r.mine == 1 && r.theirs == 1)
    s->set_draws(s->draws() + 1);
  else
    s->set_losses(s->losses() + 1);
}

// Warnings per player over every game of the event (replays included).
std::map<std::string, int> Warnings(const v1::Tournament& t, const GameFactsMap& games) {
  std::map<std::string, int> w;
  for (const v1::TournamentRound& r : t.rounds()) {
    for (const v1::Pairing& p : r.pairings()) {
      std::vector<std::string> ids(p.replayed_game_ids().begin(), p.replayed_game_ids().end());
      ids.push_back(p.game_id());
      for (const std::string& g : ids) {
        auto it = games.find(g);
        if (g.empty() || it == games.end()) continue;
        w[p.black()] += it->second.warnings_black;
        w[p.white()] += it->second.warnings_white;
      }
    }
  }
  return w;
}

// The rounds an entrant's total score counts (art. 27's 轮次, the rounds
// played): the paired rounds but `awaited`, those where a game of theirs
// (a team's match) has no result yet. Before any result the formula's "−
// rounds" would otherwise put every entrant at −1 with nothing played.
void SetCountedRounds(const v1::Tournament& t, const std::set<int>& awaited, Standing* s) {
  std::set<int> paired;
  for (const v1::TournamentRound& r : t.rounds()) paired.insert(r.round());
  s->clear_counted_rounds();
  for (int r : paired) {
    if (!awaited.contains(r)) s->add_counted_rounds(r);
  }
}

// The rounds of each player with a game still to give its result: pending
// (or a replay awaited), or a game recorded with other players, which
// counts for nobody until the pairing's own game is attached.
std::map<std::string, std::set<int>> AwaitedRounds(const std::vector<ScoredPairing>& scored) {
  std::map<std::string, std::set<int>> out;
  for (const ScoredPairing& sp : scored) {
    if (sp.round() == 0) continue;
    if (sp.status() != ScoredPairing::PENDING && sp.status() != ScoredPairing::MISMATCH) continue;
    out[sp.black()].insert(sp.round());
    out[sp.white()].insert(sp.round());
  }
  return out;
}

// The least common multiple of the entrants' numbers of counted rounds (a
// number of 0 taken as 1): totals over different numbers of rounds compare
// exactly as keys scaled to it. Entrants differ by a round or two while a
// round is in play, so it stays small.
int64_t CommonRounds(const std::map<std::string, Standing>& entrants) {
  int64_t common = 1;
  for (const auto& [id, s] : entrants) {
    common = std::lcm(common, static_cast<int64_t>(std::max(1, s.counted_rounds_size())));
  }
  return common;
}

// Each player's own record: points, wins, A, opponents' points, warnings.
std::map<std::string, Standing> PlayerRecords(const v1::Tournament& t, const GameFactsMap& games,
                                              const std::vector<ScoredPairing>& scored,
                                              std::map<std::string, std::vector<Record>>* records) {
  std::map<std::string, Standing> out;
  for (const v1::TournamentPlayer& p : t.players()) {
    Standing& s = out[p.id()];
    s.set_id(p.id());
    s.set_name(NativeName(p));
    s.set_withdrawn(FindWithdrawal(t, p.id()) != nullptr);
  }
  const std::map<std::string, std::set<int>> awaited = AwaitedRounds(scored);
  for (auto& [id, s] : out) {
    auto a = awaited.find(id);
    SetCountedRounds(t, a == awaited.end() ? std::set<int>{} : a->second, &s);
  }
  // tournament-2026.1 tallied every 0-0 as a loss, NO_RESULT included.
  const bool no_result_untallied = StandingsRulesFrom(t, "tournament-2026.2");
  for (const ScoredPairing& sp : scored) {
    if (!Counts(sp)) continue;
    const bool untallied = no_result_untallied && sp.outcome() == v1::Result::NO_RESULT;
    (*records)[sp.black()].push_back({sp.white(), sp.black_points(), sp.white_points(), untallied});
    (*records)[sp.white()].push_back({sp.black(), sp.white_points(), sp.black_points(), untallied});
  }
  for (auto& [id, recs] : *records) {
    Standing& s = out[id];
    for (const Record& r : recs) {
      s.set_points(s.points() + r.mine);
      Tally(r, &s);
    }
  }
  for (const v1::TournamentRound& r : t.rounds()) {
    for (const std::string& id : r.byes()) {
      if (ByeCredited(t, id, r.round()))
        out[id].set_points(out[id].points() + t.settings().bye_points());
    }
  }
  for (auto& [id, recs] : *records) {
    Standing& s = out[id];
    int a2 = 0;  // twice A, to stay in integers
    int opp = 0;
    for (const Record& r : recs) {
      const int theirs = out[r.opponent].points();
      opp += theirs;
      if (r.mine == 2)
        a2 += 2 * theirs;
      else if (r.mine == 1 && r.theirs == 1)
        a2 += theirs;
    }
    s.set_tie_break_a(a2 / 2.0);
    s.set_opponents_points(opp);
    s.set_opponents_score(opp);
  }
  for (const auto& [id, n] : Warnings(t, games)) out[id].set_warnings(n);
  return out;
}

// Art. 27's Swiss total score times R, exactly: points*R + ΣOpp − R².
int64_t TotalTimesRounds(int points, int opp, int rounds) {
  return static_cast<int64_t>(points) * rounds + opp - static_cast<int64_t>(rounds) * rounds;
}

// The board a player of `sp` played on for their team: the pairing's
// teamBoard when the boards change by round, else the player's own, else (a
// substitute with no registered board, paired board by board) the
// opponent's: a match's boards are never crossed (matches.h CheckMatches).
int TeamBoard(const v1::Tournament& t, const ScoredPairing& sp,
              const v1::TournamentPlayer& player) {
  const v1::Pairing* p = sp.round() == 0 ? nullptr : FindPairing(t, sp.round(), sp.board());
  if (p != nullptr && p->team_board() > 0) return p->team_board();
  if (player.board() > 0) return player.board();
  const v1::TournamentPlayer* opponent =
      FindPlayer(t, sp.black() == player.id() ? sp.white() : sp.black());
  return opponent != nullptr ? opponent->board() : 0;
}

// The opponents' points as the ruleset counts them, times `*scale` (an
// integer): cn-1988 art. 29.3 counts a withdrawn Swiss opponent for their
// points plus A x their unplayed rounds, A = their game points / games
// played, at most 1 ("A如大于1，则按1计算"). `scale` is the least common
// multiple of those opponents' games played, so every sum stays exact.
std::map<std::string, int64_t> OpponentsScaled(
    const v1::Tournament& t, const v1::StandingsReport& report,
    const std::map<std::string, Standing>& players,
    const std::map<std::string, std::vector<Record>>& records, int64_t* scale) {
  // The adjusted points of each withdrawn player, as (numerator, games).
  std::map<std::string, std::pair<int64_t, int64_t>> adjusted;
  *scale = 1;
  const bool applies = Ruleset(t) == "cn-1988" &&
                       t.settings().system() == TournamentSettings::SWISS && !t.settings().teams();
  if (applies) {
    const int total_rounds = t.settings().rounds() > 0 ? t.settings().rounds() : report.rounds();
    for (const v1::PlayerWithdrawn& w : t.withdrawals()) {
      auto rec = records.find(w.player());
      if (rec == records.end() || rec->second.empty()) continue;  // met nobody
      const int64_t games = static_cast<int64_t>(rec->second.size());
      int64_t game_points = 0;
      for (const Record& r : rec->second) game_points += r.mine;
      const int64_t unplayed = std::max(0, total_rounds - w.after_round());
      const int64_t points = players.at(w.player()).points();
      adjusted[w.player()] = {points * games + std::min(game_points, games) * unplayed, games};
      *scale = std::lcm(*scale, games);
    }
  }
  std::map<std::string, int64_t> out;
  for (const auto& [id, recs] : records) {
    int64_t sum = 0;
    for (const Record& r : recs) {
      auto a = adjusted.find(r.opponent);
      sum += a == adjusted.end() ? players.at(r.opponent).points() * *scale
                                 : a->second.first * (*scale / a->second.second);
    }
    out[id] = sum;
  }
  return out;
}

void Individual(const v1::Tournament& t, const GameFactsMap& games, v1::StandingsReport* report,
                const std::vector<ScoredPairing>& scored) {
  std::map<std::string, std::vector<Record>> records;
  std::map<std::string, Standing> players = PlayerRecords(t, games, scored, &records);
  const int64_t common = CommonRounds(players);
  const bool swiss = t.settings().system() == TournamentSettings::SWISS;
  const bool by_opponents =
      t.settings().swiss_method() == TournamentSettings::POINTS_THEN_OPPONENTS;
  int64_t scale = 1;
  const std::map<std::string, int64_t> opponents =
      OpponentsScaled(t, *report, players, records, &scale);
  std::vector<Entry> entries;
  std::vector<std::string> names;
  for (auto& [id, s] : players) {
    Entry e;
    auto found = opponents.find(id);
    const int64_t opp = found == opponents.end() ? 0 : found->second;  // times `scale`
    s.set_opponents_score(static_cast<double>(opp) / static_cast<double>(scale));
    const int rounds = s.counted_rounds_size();
    // Art. 27's total score times R (and `scale`), exactly: points*R + ΣOpp − R².
    const int64_t total_r =
        rounds > 0
            ? (static_cast<int64_t>(s.points()) * rounds - static_cast<int64_t>(rounds) * rounds) *
                      scale +
                  opp
            : static_cast<int64_t>(s.points()) * scale;
    s.set_total_score(rounds > 0
                          ? static_cast<double>(total_r) / static_cast<double>(rounds * scale)
                          : s.points());
    if (!swiss) {
      e.keys = {s.points(), static_cast<int64_t>(s.tie_break_a() * 2), -s.warnings()};
      names = {"points", "A", "B"};
      // 28.2: every result void: no place in the standings.
      e.unranked = s.withdrawn() && records[id].empty();
    } else if (by_opponents) {
      e.keys = {s.points(), opp, -s.warnings()};
      names = {"points", "opponents' points", "B"};
    } else {
      e.keys = {total_r * (common / std::max(1, rounds)), -s.warnings()};
      names = {"total score", "B"};
    }
    e.standing = s;
    entries.push_back(std::move(e));
  }
  Rank(entries, names, t, report->mutable_standings());
}

using Who = std::map<std::string, const v1::TournamentPlayer*>;

// The teams' standings, each with a place for every board's points.
std::map<std::string, Standing> TeamTables(const v1::Tournament& t, int boards) {
  std::map<std::string, Standing> teams;
  for (const v1::TournamentTeam& team : t.teams()) {
    Standing& s = teams[team.id()];
    s.set_id(team.id());
    s.set_name(team.name());
    for (int b = 0; b < boards; ++b) s.add_board_by_board(0);
  }
  return teams;
}

// Each counted game's points to its players' teams, in all and board by board.
void AddBoardPoints(const v1::Tournament& t, const std::vector<ScoredPairing>& scored,
                    const Who& who, std::map<std::string, Standing>& teams) {
  for (const ScoredPairing& sp : scored) {
    if (!Counts(sp) || sp.round() == 0) continue;
    const std::string& tb = who.at(sp.black())->team();
    const std::string& tw = who.at(sp.white())->team();
    // A player outside any team, or team-mates (a game from tournament
    // software's file): no match.
    if (tb.empty() || tw.empty() || tb == tw) continue;
    for (const auto& [id, pts] :
         {std::pair{sp.black(), sp.black_points()}, std::pair{sp.white(), sp.white_points()}}) {
      Standing& s = teams[who.at(id)->team()];
      s.set_board_points(s.board_points() + pts);
      const int board = TeamBoard(t, sp, *who.at(id));
      if (board > 0) s.set_board_by_board(board - 1, s.board_by_board(board - 1) + pts);
    }
  }
}

// A team's bye (its players listed as the round's byes, no match of its
// own): each player is credited the setting, as in the players' table
// (局分 "的记法和个人赛相同"), and the team's match is scored against those
// board points as against an opponent's (2 - setting) a board: a setting
// of 2 is a won match, 1 a drawn one, 0 a lost one. A bye has no opponent,
// so it adds nothing to the opponents' points.
void CreditTeamBye(const v1::Tournament& t, int round, const std::string& team,
                   const std::vector<const v1::TournamentPlayer*>& members, Standing& s) {
  const int bye = t.settings().bye_points();
  // Each player's board is the one the team's lineup for the round gives
  // (matches.h: a substitute takes a board, those below a player left out
  // move up), else the registered one.
  const absl::StatusOr<std::vector<std::string>> lineup = TeamLineup(t, round, team);
  for (const v1::TournamentPlayer* p : members) {
    s.set_board_points(s.board_points() + bye);
    int board = p->board();
    if (lineup.ok()) {
      auto at = std::find(lineup->begin(), lineup->end(), p->id());
      if (at != lineup->end()) board = static_cast<int>(at - lineup->begin()) + 1;
    }
    if (board > 0 && board <= s.board_by_board_size()) {
      s.set_board_by_board(board - 1, s.board_by_board(board - 1) + bye);
    }
  }
  const int mine = bye == 2 ? 2 : bye == 1 ? 1 : 0;
  s.set_points(s.points() + mine);
  Tally({"", mine, 2 - mine}, &s);
}

// Every round's team byes (CreditTeamBye).
void CreditTeamByes(const v1::Tournament& t, const std::vector<MatchScore>& matches, const Who& who,
                    std::map<std::string, Standing>& teams) {
  for (const v1::TournamentRound& r : t.rounds()) {
    std::map<std::string, std::vector<const v1::TournamentPlayer*>> on_bye;
    for (const std::string& id : r.byes()) {
      auto p = who.find(id);
      if (p != who.end() && !p->second->team().empty())
        on_bye[p->second->team()].push_back(p->second);
    }
    for (const auto& [team, members] : on_bye) {
      bool has_match = false;
      for (const MatchScore& m : matches) {
        has_match =
            has_match || (m.round == r.round() && (m.teams[0] == team || m.teams[1] == team));
      }
      if (!has_match) CreditTeamBye(t, r.round(), team, members, teams[team]);
    }
  }
}

// The teams ranked (art. 27, team events) into `out`.
void RankTeams(const v1::Tournament& t, int boards, std::map<std::string, Standing>& teams,
               google::protobuf::RepeatedPtrField<Standing>* out) {
  const int64_t common = CommonRounds(teams);
  const bool swiss = t.settings().system() == TournamentSettings::SWISS;
  const bool by_opponents =
      t.settings().swiss_method() == TournamentSettings::POINTS_THEN_OPPONENTS;
  std::vector<Entry> entries;
  std::vector<std::string> names;
  for (auto& [id, s] : teams) {
    Entry e;
    const int rounds = s.counted_rounds_size();
    const int64_t total_r =
        rounds > 0 ? TotalTimesRounds(s.points(), s.opponents_points(), rounds) : s.points();
    s.set_total_score(rounds > 0 ? static_cast<double>(total_r) / rounds : s.points());
    // Art. 27 团体赛 2: a Swiss team event is ranked by 总得分 (the total
    // score) or 总积分 (the match points), "如相同则依循环赛顺序区分名次":
    // then as a round robin, match points first. The team text names no
    // opponents' points (those are the individual Swiss's 2.B).
    if (!swiss || by_opponents) {
      e.keys = {s.points()};
      names = {"match points"};
    } else {
      e.keys = {total_r * (common / std::max(1, rounds)), s.points()};
      names = {"total score", "match points"};
    }
    e.keys.push_back(s.board_points());
    names.push_back("board points");
    for (int b = 0; b < boards; ++b) {
      e.keys.push_back(s.board_by_board(b));
      names.push_back(absl::StrCat("board ", b + 1));
    }
    e.standing = s;
    entries.push_back(std::move(e));
  }
  Rank(entries, names, t, out);
}

void Teams(const v1::Tournament& t, const GameFactsMap& games, v1::StandingsReport* report,
           const std::vector<ScoredPairing>& scored) {
  std::map<std::string, std::vector<Record>> records;
  std::map<std::string, Standing> players = PlayerRecords(t, games, scored, &records);
  Who who;
  int boards = 0;
  for (const v1::TournamentPlayer& p : t.players()) {
    who[p.id()] = &p;
    boards = std::max(boards, p.board());
  }
  for (const v1::TournamentRound& r : t.rounds()) {
    for (const v1::Pairing& p : r.pairings()) boards = std::max(boards, p.team_board());
  }
  std::map<std::string, Standing> teams = TeamTables(t, boards);
  AddBoardPoints(t, scored, who, teams);
  // A match counts once all its boards have a result (match_scores.h).
  const std::vector<MatchScore> matches = MatchScores(t, report->pairings());
  std::map<std::string, std::vector<Record>> team_records;
  std::map<std::string, std::set<int>> awaited;  // a match's round counts once it is complete
  for (const MatchScore& m : matches) {
    if (!m.Complete()) {
      awaited[m.teams[0]].insert(m.round);
      awaited[m.teams[1]].insert(m.round);
      continue;
    }
    team_records[m.teams[0]].push_back({m.teams[1], m.MatchPoints(0), m.MatchPoints(1)});
    team_records[m.teams[1]].push_back({m.teams[0], m.MatchPoints(1), m.MatchPoints(0)});
  }
  for (auto& [id, recs] : team_records) {
    for (const Record& r : recs) {
      teams[id].set_points(teams[id].points() + r.mine);
      Tally(r, &teams[id]);
    }
  }
  CreditTeamByes(t, matches, who, teams);
  for (auto& [id, s] : teams) SetCountedRounds(t, awaited[id], &s);
  for (auto& [id, recs] : team_records) {
    int opp = 0;
    for (const Record& r : recs) opp += teams[r.opponent].points();
    teams[id].set_opponents_points(opp);
    teams[id].set_opponents_score(opp);
  }
  for (const auto& [id, s] : players) {
    if (who[id]->team().empty()) continue;
    Standing& team = teams[who[id]->team()];
    team.set_warnings(team.warnings() + s.warnings());
  }
  RankTeams(t, boards, teams, report->mutable_standings());
  // Each player's own record, ranked by game points only (for information).
  std::vector<Entry> individual;
  for (auto& [id, s] : players) {
    Entry e;
    e.keys = {s.points()};
    e.standing = s;
    individual.push_back(std::move(e));
  }
  v1::Tournament no_decisions = t;
  no_decisions.clear_tie_breaks();  // C decisions are between teams
  Rank(individual, {"points"}, no_decisions, report->mutable_player_standings());
}

}  // namespace

v1::StandingsReport ComputeStandings(const v1::Tournament& t, const GameFactsMap& games) {
  v1::StandingsReport report;
  report.set_tournament(t.name());
  report.set_title(t.title());
  *report.mutable_settings() = t.settings();
  std::set<int> rounds;
  for (const v1::TournamentRound& r : t.rounds()) rounds.insert(r.round());
  report.set_rounds(static_cast<int>(rounds.size()));
  std::vector<ScoredPairing> scored = ScoreTournament(t, games);
  for (const ScoredPairing& s : scored) {
    if (s.status() == ScoredPairing::MISMATCH) report.add_errors(s.note());
  }
  for (const ScoredPairing& s : scored) *report.add_pairings() = s;
  if (t.settings().teams()) {
    Teams(t, games, &report, scored);
  } else {
    Individual(t, games, &report, scored);
  }
  return report;
}

}  // namespace arbiter::tournament
