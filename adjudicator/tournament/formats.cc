#include "adjudicator/tournament/formats.h"

#include <algorithm>
#include <map>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/string_view.h"
#include "adjudicator/tournament/fold.h"
#include "adjudicator/tournament/scoring.h"

namespace arbiter::tournament {
namespace {

using v1::ScoredPairing;

// The standings that list players: the players' own in a team event.
const google::protobuf::RepeatedPtrField<v1::Standing>& PlayerRows(const v1::Tournament& t,
                                                                    const v1::StandingsReport& r) {
  return t.settings().teams() ? r.player_standings() : r.standings();
}

// The pairing (if any) that `id` played in `round`, preferring one that counts.
const ScoredPairing* InRound(const v1::StandingsReport& r, const std::string& id, int round) {
  const ScoredPairing* found = nullptr;
  for (const ScoredPairing& p : r.pairings()) {
    if (p.round() != round || (p.black() != id && p.white() != id)) continue;
    if (found == nullptr || Counts(p)) found = &p;
  }
  return found;
}

bool HadBye(const v1::Tournament& t, const std::string& id, int round) {
  for (const v1::TournamentRound& r : t.rounds()) {
    if (r.round() != round) continue;
    if (std::find(r.byes().begin(), r.byes().end(), id) != r.byes().end()) return true;
  }
  return false;
}

std::vector<int> RoundNumbers(const v1::Tournament& t) {
  std::vector<int> out;
  for (const v1::TournamentRound& r : t.rounds()) out.push_back(r.round());
  return out;
}

std::string Symbol(const ScoredPairing& p, const std::string& side) {
  const bool black = p.black() == side;
  const int mine = black ? p.black_points() : p.white_points();
  const int theirs = black ? p.white_points() : p.black_points();
  return mine == 2 ? "+" : (mine == 1 && theirs == 1) ? "=" : "-";
}

std::string ByeToken(const v1::Tournament& t) {
  const int b = t.settings().bye_points();
  return b == 2 ? "0+" : b == 1 ? "0=" : "0-";
}

std::string NoSpaces(absl::string_view s) { return absl::StrReplaceAll(s, {{" ", "_"}}); }

std::string Lower(absl::string_view s) { return absl::AsciiStrToLower(s); }

std::string CsvField(absl::string_view s) {
  if (s.find_first_of(",\"\n\r") == absl::string_view::npos) return std::string(s);
  return absl::StrCat("\"", absl::StrReplaceAll(s, {{"\"", "\"\""}}), "\"");
}

std::string Decimal(double d) { return absl::StrFormat("%.2f", d); }

}  // namespace

std::string EgdToken(const ScoredPairing& p, const std::string& side) {
  if (!Counts(p)) return "0-";
  return absl::StrCat(Symbol(p, side), "/", p.black() == side ? "b" : "w", p.handicap(),
                      p.by_default() ? "!" : "");
}

std::string AgaToken(const ScoredPairing& p) {
  if (p.status() != ScoredPairing::DECIDED || p.by_default()) return "omitted";
  if (p.outcome() == v1::Result::BLACK_WINS) return "b";
  if (p.outcome() == v1::Result::WHITE_WINS) return "w";
  return "omitted";
}

std::string ExportEgdH9(const v1::Tournament& t, const v1::StandingsReport& report) {
  const auto& rows = PlayerRows(t, report);
  std::map<std::string, int> place;
  for (int i = 0; i < rows.size(); ++i) place[rows[i].id()] = i + 1;
  const bool swiss = t.settings().system() == v1::TournamentSettings::SWISS;
  const v1::TournamentSettings& s = t.settings();
  std::string out;
  absl::StrAppend(&out, "; EV[", t.title(), "]\n");
  if (!s.location().empty()) absl::StrAppend(&out, "; PC[", s.location(), "]\n");
  if (!s.begin_date().empty()) {
    absl::StrAppend(&out, "; DT[", s.begin_date(), ",", s.end_date().empty() ? s.begin_date() : s.end_date(), "]\n");
  }
  absl::StrAppend(&out, "; HA[h9]\n; KM[", absl::StrFormat("%g", s.komi() * 2), "]\n");
  absl::StrAppend(&out, "; CM[standings per art. 27 of the ", s.ruleset().empty() ? "cn-2002" : s.ruleset(),
                  " rules: Pts = 2 a win, 1 a draw; reasons are in the sidecar]\n;\n");
  absl::StrAppend(&out, "; Pl Name Rk Co Club Pts ", swiss ? "TS" : "A", " B\n");
  const std::vector<int> rounds = RoundNumbers(t);
  for (int i = 0; i < rows.size(); ++i) {
    const v1::Standing& st = rows[i];
    const v1::TournamentPlayer* p = FindPlayer(t, st.id());
    std::vector<std::string> cols = {
        absl::StrCat(i + 1),
        NoSpaces(p->name()),
        NoSpaces(p->first_name().empty() ? "-" : p->first_name()),
        Lower(p->rank().empty() ? "-" : p->rank()),
        p->country().empty() ? "-" : NoSpaces(p->country()),
        p->club().empty() ? "-" : NoSpaces(p->club()),
        absl::StrCat(st.points()),
        swiss ? Decimal(st.total_score()) : Decimal(st.tie_break_a()),
        absl::StrCat(st.warnings()),
    };
    for (int r : rounds) {
      const ScoredPairing* sp = InRound(report, st.id(), r);
      if (sp == nullptr) {
        cols.push_back(HadBye(t, st.id(), r) ? ByeToken(t) : "0-");
      } else if (!Counts(*sp)) {
        cols.push_back("0-");
      } else {
        const std::string& opp = sp->black() == st.id() ? sp->white() : sp->black();
        cols.push_back(absl::StrCat(place[opp], EgdToken(*sp, st.id())));
      }
    }
    absl::StrAppend(&out, absl::StrJoin(cols, " "));
    if (!p->egf_pin().empty()) absl::StrAppend(&out, " |", p->egf_pin());
    out += "\n";
  }
  return out;
}

std::string ExportAga(const v1::Tournament& t, const v1::StandingsReport& report) {
  const v1::TournamentSettings& s = t.settings();
  std::map<std::string, std::string> aga;
  int tmp = 0;
  for (const v1::TournamentPlayer& p : t.players()) {
    aga[p.id()] = p.aga_id().empty() ? absl::StrCat("TMP", ++tmp) : p.aga_id();
  }
  std::string out;
  absl::StrAppend(&out, "# ", t.title(), ": exported by arbiter. AGA results carry wins over the board only;\n",
                  "# draws, both-lose, no result, forfeits and voided games are comments here and in the sidecar.\n");
  absl::StrAppend(&out, "TOURNEY ", t.title(), s.location().empty() ? "" : ", ", s.location(), "\n");
  if (!s.begin_date().empty()) absl::StrAppend(&out, "     start=", s.begin_date(), "\n");
  if (!s.end_date().empty()) absl::StrAppend(&out, "     finish=", s.end_date(), "\n");
  absl::StrAppend(&out, "     rules=", s.ruleset().empty() ? "cn-2002" : s.ruleset(), "\nPLAYERS\n");
  for (const v1::TournamentPlayer& p : t.players()) {
    absl::StrAppend(&out, aga[p.id()], " ", p.name(), p.first_name().empty() ? "" : ", ", p.first_name(), " ",
                    Lower(p.rank().empty() ? "?" : p.rank()), "\n");
  }
  out += "GAMES\n";
  const std::string komi = absl::StrFormat("%g", s.komi() * 2);
  for (const ScoredPairing& p : report.pairings()) {
    const std::string token = AgaToken(p);
    if (token != "omitted") {
      absl::StrAppend(&out, aga[p.white()], " ", aga[p.black()], " ", token, " ", p.handicap(), " ", komi, "\n");
    } else if (p.status() != ScoredPairing::PENDING) {
      absl::StrAppend(&out, "# round ", p.round(), " board ", p.board(), ": ", aga[p.white()], " (W) ",
                      aga[p.black()], " (B) ", v1::Result::Outcome_Name(p.outcome()),
                      p.status() == ScoredPairing::VOID ? " void" : p.by_default() ? " by default" : "",
                      ": not an AGA result, see the sidecar\n");
    }
  }
  return out;
}

std::string ExportCsv(const v1::Tournament& t, const v1::StandingsReport& report) {
  const std::vector<int> rounds = RoundNumbers(t);
  std::vector<std::string> header;
  const bool teams = t.settings().teams();
  if (teams) {
    header = {"rank", "id", "name", "match_points", "board_points", "total_score", "opponents_points",
              "wins", "draws", "losses", "decided_by"};
    int boards = report.standings().empty() ? 0 : report.standings(0).board_by_board_size();
    for (int b = 1; b <= boards; ++b) header.push_back(absl::StrCat("board_", b));
  } else {
    header = {"rank", "id", "name", "points", "tie_break_a", "opponents_points", "total_score", "warnings",
              "wins", "draws", "losses", "withdrawn", "decided_by"};
    for (int r : rounds) header.push_back(absl::StrCat("round_", r));
  }
  std::string out = absl::StrJoin(header, ",") + "\r\n";
  for (const v1::Standing& st : report.standings()) {
    std::vector<std::string> row;
    if (teams) {
      row = {absl::StrCat(st.rank()), st.id(), st.name(), absl::StrCat(st.points()), absl::StrCat(st.board_points()),
             Decimal(st.total_score()), absl::StrCat(st.opponents_points()), absl::StrCat(st.wins()),
             absl::StrCat(st.draws()), absl::StrCat(st.losses()), st.decided_by()};
      for (int b : st.board_by_board()) row.push_back(absl::StrCat(b));
    } else {
      row = {absl::StrCat(st.rank()), st.id(), st.name(), absl::StrCat(st.points()), Decimal(st.tie_break_a()),
             absl::StrCat(st.opponents_points()), Decimal(st.total_score()), absl::StrCat(st.warnings()),
             absl::StrCat(st.wins()), absl::StrCat(st.draws()), absl::StrCat(st.losses()),
             st.withdrawn() ? "yes" : "no", st.decided_by()};
      for (int r : rounds) {
        const ScoredPairing* sp = InRound(report, st.id(), r);
        if (sp == nullptr) {
          row.push_back(HadBye(t, st.id(), r) ? "bye" : "");
        } else if (!Counts(*sp)) {
          row.push_back(sp->status() == ScoredPairing::VOID ? "void" : "pending");
        } else {
          const std::string& opp = sp->black() == st.id() ? sp->white() : sp->black();
          row.push_back(absl::StrCat(opp, " ", EgdToken(*sp, st.id())));
        }
      }
    }
    for (std::string& f : row) f = CsvField(f);
    out += absl::StrJoin(row, ",") + "\r\n";
  }
  return out;
}

}  // namespace arbiter::tournament
