#include "adjudicator/tournament/scoring.h"

#include <algorithm>
#include <map>
#include <string>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "adjudicator/tournament/fold.h"
#include "adjudicator/tournament/names.h"
#include "adjudicator/tournament/standings_rules.h"
#include "rulesdb/rules.h"

namespace arbiter::tournament {
namespace {

using v1::Result;
using v1::ScoredPairing;

void SetPoints(Result::Outcome o, ScoredPairing* s) {
  s->set_outcome(o);
  switch (o) {
    case Result::BLACK_WINS:
      s->set_black_points(2);
      s->set_white_points(0);
      break;
    case Result::WHITE_WINS:
      s->set_black_points(0);
      s->set_white_points(2);
      break;
    case Result::DRAW:
      s->set_black_points(1);
      s->set_white_points(1);
      break;
    case Result::BOTH_WIN:  // entered from tournament software only
      s->set_black_points(2);
      s->set_white_points(2);
      break;
    default:
      s->set_black_points(0);
      s->set_white_points(0);
      break;
  }
}

// `loser` forfeits `s` to its opponent (both, if the opponent withdrew too).
void Forfeit(ScoredPairing* s, const std::string& loser, bool opponent_withdrawn,
             const std::string& clause, const std::string& note) {
  s->set_status(ScoredPairing::FORFEIT);
  s->set_by_default(true);
  s->clear_reason();
  s->clear_clause();
  s->clear_ruling();
  if (opponent_withdrawn) {
    SetPoints(Result::BOTH_LOSE, s);
  } else {
    SetPoints(s->black() == loser ? Result::WHITE_WINS : Result::BLACK_WINS, s);
  }
  s->set_clause(clause);
  s->set_note(note);
}

// A team event's board after `loser` withdrew (the other side withdrawn
// too when `opponent_withdrawn`). 2002 art. 28.4: "未赛部分均作弃权处理", the
// withdrawn player's forfeit: lost by default, lost by both when both have
// withdrawn (each forfeits, as 22.3's double lateness). 1988 art. 29.4:
// "未赛部分均作对方胜", the opponent's win: 2-0 by default, and when both have
// withdrawn each side's unplayed game counts as the other's win: a win to
// each (BOTH_WIN, 2-2), the board's points the text gives both teams.
void TeamUnplayed(ScoredPairing* s, const std::string& loser, bool opponent_withdrawn, bool y1988,
                  const std::string& clause, int after_round) {
  Forfeit(
      s, loser, opponent_withdrawn && !y1988, clause,
      absl::StrCat(loser, " withdrew after round ", after_round, "; ", clause,
                   y1988 ? ": the unplayed game counts as the opponent's win (未赛部分均作对方胜)"
                         : ": the unplayed game is a forfeit (未赛部分均作弃权处理)"));
  if (opponent_withdrawn && y1988) {
    SetPoints(Result::BOTH_WIN, s);
    absl::StrAppend(s->mutable_note(), "; both withdrew: a win to each");
  }
}

void Void(ScoredPairing* s, const std::string& note) {
  s->set_status(ScoredPairing::VOID);
  s->set_black_points(0);
  s->set_white_points(0);
  s->set_note(note);
}

bool Involves(const ScoredPairing& s, const std::string& id) {
  return s.black() == id || s.white() == id;
}

const std::string& Opponent(const ScoredPairing& s, const std::string& id) {
  return s.black() == id ? s.white() : s.black();
}

}  // namespace

bool Counts(const ScoredPairing& p) {
  return p.status() == ScoredPairing::DECIDED || p.status() == ScoredPairing::FORFEIT;
}

std::string Ruleset(const v1::Tournament& t) {
  return t.settings().ruleset().empty() ? std::string(kDefaultRuleset) : t.settings().ruleset();
}

std::string WithdrawalClause(const v1::Tournament& t, absl::string_view which) {
  const bool y1988 = Ruleset(t) == "cn-1988";
  const char* clause = which == "round robin" ? (y1988 ? "29.2" : "28.2")
                       : which == "Swiss"     ? (y1988 ? "29.3" : "28.3")
                                              : (y1988 ? "29.4" : "28.4");
  return absl::StrCat(y1988 ? "cn-1988/" : "cn-2002/", clause);
}

absl::Status CheckRecordedPlayers(const v1::Tournament& t, const v1::Pairing& p,
                                  const GameFacts& facts) {
  if (facts.recorded_black.empty() && facts.recorded_white.empty()) return absl::OkStatus();
  const v1::TournamentPlayer* black = FindPlayer(t, p.black());
  const v1::TournamentPlayer* white = FindPlayer(t, p.white());
  if (black != nullptr && white != nullptr && RecordedAs(*black, facts.recorded_black) &&
      RecordedAs(*white, facts.recorded_white)) {
    return absl::OkStatus();
  }
  const bool swapped = black != nullptr && white != nullptr &&
                       RecordedAs(*black, facts.recorded_white) &&
                       RecordedAs(*white, facts.recorded_black);
  return absl::FailedPreconditionError(absl::StrCat(
      "round ", p.round(), " board ", p.board(), ": game ", p.game_id(), " was recorded as '",
      facts.recorded_black, "' (Black) v '", facts.recorded_white, "' (White), but the pairing is ",
      p.black(), " (Black) v ", p.white(), " (White)",
      swapped ? ": the colours differ" : ": the players differ"));
}

namespace {

// A pairing with no game of its own in the ledger (none attached, not
// recorded yet, or one the chief arbiter cancelled, DOMAIN.md §3.2, which
// was never the pairing's): decided only by a result entered for it, from
// the file of tournament software or from the paper score sheet by a
// director's correction (a recorded game's result is always its record's).
// `cancelled`: the cancellation's reason, when the game was cancelled.
void ScoreWithoutGame(const v1::Pairing& p, const std::string* cancelled, ScoredPairing& s) {
  if (p.entered_outcome() != Result::OUTCOME_UNSPECIFIED) {
    s.set_status(ScoredPairing::DECIDED);
    SetPoints(p.entered_outcome(), &s);
    s.set_by_default(p.entered_by_default());
    s.set_note(p.from_score_sheet() ? "from the paper score sheet (no game recorded)"
                                    : "entered (no game in the ledger)");
  } else if (cancelled != nullptr) {
    s.set_note(absl::StrCat("game ", p.game_id(), " was cancelled by the chief arbiter (",
                            *cancelled, "); the pairing awaits a game"));
  } else if (!p.game_id().empty()) {
    s.set_note(absl::StrCat("game ", p.game_id(), " is not in the ledger yet"));
  }
}

// A finished game's result, its players checked: the pairing's points (a
// lateness loss counts as a loss by default), or pending again when the
// game is to be replayed.
void ScoreRecordedResult(const v1::Pairing& p, const Result& r, ScoredPairing& s) {
  s.set_reason(r.reason());
  s.set_clause(r.clause());
  s.set_ruling(r.ruling());
  if (r.outcome() == Result::REPLAY) {
    s.set_outcome(Result::REPLAY);
    s.set_note(
        absl::StrCat("game ", p.game_id(), " is to be replayed; awaiting the replay's game"));
    return;
  }
  s.set_status(ScoredPairing::DECIDED);
  SetPoints(r.outcome(), &s);
  s.set_by_default(r.reason() == Result::LATENESS);
  if (!p.replayed_game_ids().empty()) {
    s.set_note(
        absl::StrCat("replay of game ", p.replayed_game_ids(p.replayed_game_ids_size() - 1)));
  }
}

}  // namespace

ScoredPairing ScorePairing(const v1::Tournament& t, const v1::Pairing& p,
                           const GameFactsMap& games) {
  ScoredPairing s;
  s.set_round(p.round());
  s.set_board(p.board());
  s.set_black(p.black());
  s.set_white(p.white());
  s.set_game_id(p.game_id());
  s.set_handicap(p.handicap());
  s.set_status(ScoredPairing::PENDING);
  auto it = p.game_id().empty() ? games.end() : games.find(p.game_id());
  if (it == games.end() || it->second.cancelled.has_value()) {
    ScoreWithoutGame(p, it == games.end() ? nullptr : &*it->second.cancelled, s);
    return s;
  }
  if (!it->second.result.has_value()) {
    s.set_note(absl::StrCat("game ", p.game_id(), " is in progress"));
    return s;
  }
  const GameFacts& facts = it->second;
  if (absl::Status check = CheckRecordedPlayers(t, p, facts); !check.ok()) {
    s.set_status(ScoredPairing::MISMATCH);
    s.set_note(absl::StrCat(check.message(), "; its result is not counted"));
    return s;
  }
  ScoreRecordedResult(p, *facts.result, s);
  return s;
}

bool ByeCredited(const v1::Tournament& t, const std::string& id, int round) {
  if (t.settings().teams() || !StandingsRulesFrom(t, "tournament-2026.3")) return true;
  const v1::PlayerWithdrawn* w = FindWithdrawal(t, id);
  return w == nullptr || round <= w->after_round();
}

std::vector<v1::ScoredBye> ScoredByes(const v1::Tournament& t) {
  std::vector<v1::ScoredBye> out;
  const bool y1988 = absl::StartsWith(Ruleset(t), "cn-1988");
  for (const v1::TournamentRound& r : t.rounds()) {
    for (const std::string& id : r.byes()) {
      v1::ScoredBye& b = out.emplace_back();
      b.set_round(r.round());
      b.set_player(id);
      if (const v1::TournamentPlayer* p = FindPlayer(t, id); p != nullptr && t.settings().teams())
        b.set_team(p->team());
      if (ByeCredited(t, id, r.round())) {
        b.set_points(t.settings().bye_points());
        continue;
      }
      b.set_not_credited(absl::StrCat(
          "withdrew after round ", FindWithdrawal(t, id)->after_round(),
          ": a bye after the withdrawal is worth nothing (standings rules ", t.standings_rules(),
          "; ", y1988 ? "1988 art. 29" : "2002 art. 28", ": the player takes no further part)"));
    }
  }
  return out;
}

int RoundRobinRounds(const v1::Tournament& t) {
  if (t.settings().rounds() > 0) return t.settings().rounds();
  const int n = t.players_size();
  const int cycles = std::max(1, t.settings().cycles());
  return (n % 2 == 0 ? n - 1 : n) * cycles;
}

namespace {

// Whether `id` had withdrawn before `round`.
bool WithdrawnBy(const v1::Tournament& t, const std::string& id, int round) {
  const v1::PlayerWithdrawn* w = FindWithdrawal(t, id);
  return w != nullptr && round > w->after_round();
}

// 28.2, round robin: the withdrawn player's results void when fewer than
// half the rounds were played, else the rest lost by default, games never
// paired included (added to `out` with round 0).
void RoundRobinWithdrawal(const v1::Tournament& t, const v1::PlayerWithdrawn& w,
                          std::vector<ScoredPairing>& out) {
  const std::string& id = w.player();
  const int rr_rounds = RoundRobinRounds(t);
  const std::string rr_clause = WithdrawalClause(t, "round robin");
  int played = 0;
  for (const ScoredPairing& s : out) {
    if (Involves(s, id) && s.round() <= w.after_round() && s.status() == ScoredPairing::DECIDED)
      ++played;
  }
  if (2 * played < rr_rounds) {
    for (ScoredPairing& s : out) {
      if (Involves(s, id)) {
        Void(&s, absl::StrCat(id, " withdrew after ", played, " of ", rr_rounds, " rounds; ",
                              rr_clause, ": fewer than half played, all their results are void"));
      }
    }
    return;
  }
  const std::string note =
      absl::StrCat(id, " withdrew after round ", w.after_round(), " (", played, " of ", rr_rounds,
                   " played); ", rr_clause, ": the rest is lost by default");
  std::map<std::string, int> met;  // games against each opponent that stand or are forfeited
  for (ScoredPairing& s : out) {
    if (!Involves(s, id) || s.status() == ScoredPairing::VOID) continue;
    if (s.round() > w.after_round()) {
      Forfeit(&s, id, WithdrawnBy(t, Opponent(s, id), s.round()), rr_clause, note);
    }
    if (Counts(s) || s.round() > w.after_round()) ++met[Opponent(s, id)];
  }
  const int cycles = std::max(1, t.settings().cycles());
  for (const v1::TournamentPlayer& q : t.players()) {
    if (q.id() == id) continue;
    const v1::PlayerWithdrawn* qw = FindWithdrawal(t, q.id());
    if (qw != nullptr) continue;  // no game is owed between two who left
    for (int k = met[q.id()]; k < cycles; ++k) {
      ScoredPairing s;
      s.set_round(0);
      s.set_black(id);
      s.set_white(q.id());
      Forfeit(&s, id, false, rr_clause, note);
      out.push_back(std::move(s));
    }
  }
}

}  // namespace

std::vector<ScoredPairing> ScoreTournament(const v1::Tournament& t, const GameFactsMap& games) {
  std::vector<ScoredPairing> out;
  for (const v1::TournamentRound& r : t.rounds()) {
    for (const v1::Pairing& p : r.pairings()) out.push_back(ScorePairing(t, p, games));
  }
  const v1::TournamentSettings::System system = t.settings().system();
  const bool teams = t.settings().teams();
  if (system == v1::TournamentSettings::SWISS && !teams) return out;  // 28.3: results stand

  const std::string team_clause = WithdrawalClause(t, "team");
  const bool y1988 = Ruleset(t) == "cn-1988";
  for (const v1::PlayerWithdrawn& w : t.withdrawals()) {
    const std::string& id = w.player();
    if (!teams) {
      RoundRobinWithdrawal(t, w, out);
      continue;
    }
    for (ScoredPairing& s : out) {  // 28.4; 1988 29.4
      if (Involves(s, id) && s.round() > w.after_round()) {
        TeamUnplayed(&s, id, WithdrawnBy(t, Opponent(s, id), s.round()), y1988, team_clause,
                     w.after_round());
      }
    }
  }
  return out;
}

}  // namespace arbiter::tournament
