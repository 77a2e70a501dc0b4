#include "adjudicator/tournament/formats.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <tuple>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"
#include "adjudicator/tournament/corrections.h"
#include "adjudicator/tournament/export_checkpoint.h"
#include "adjudicator/tournament/fold.h"
#include "adjudicator/tournament/names.h"
#include "adjudicator/tournament/opengotha.h"
#include "adjudicator/tournament/ranks.h"
#include "adjudicator/tournament/scoring.h"
#include "adjudicator/tournament/standings_columns.h"
#include "rulesdb/rules.h"

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

// A bye credited to `id` in `round`: one listed after the player's
// withdrawal is worth nothing from tournament-2026.3 (ByeCredited), so the
// formats write the round as one the player sat out, as the standings count it.
bool HadBye(const v1::Tournament& t, const std::string& id, int round) {
  for (const v1::TournamentRound& r : t.rounds()) {
    if (r.round() != round) continue;
    if (std::find(r.byes().begin(), r.byes().end(), id) != r.byes().end())
      return ByeCredited(t, id, round);
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

std::string NoSpaces(absl::string_view s) { return absl::StrReplaceAll(s, {{" ", "_"}}); }

std::string CsvField(absl::string_view s) {
  if (s.find_first_of(",\"\n\r") == absl::string_view::npos) return std::string(s);
  return absl::StrCat("\"", absl::StrReplaceAll(s, {{"\"", "\"\""}}), "\"");
}

std::string Decimal(double d) { return absl::StrFormat("%.2f", d); }

// A rank as EGD and AGA write it: "5k", "3d", and a professional rank as
// the EGD lists professionals, "9p" (OpenGotha's own scale stops at 9d and
// would write a 9p as "9d", a different player). Never rewritten: a rank
// that is not one (ranks.h; refused on input since, but maybe recorded
// before) is refused, naming the player.
absl::StatusOr<std::string> RankOf(const v1::TournamentPlayer& p, absl::string_view format) {
  std::optional<Rank> rank = ParseRank(p.rank());
  if (rank.has_value()) return RankAsWritten(*rank);
  return absl::FailedPreconditionError(absl::StrCat(
      format, ": player '", p.id(), "' (", NativeName(p), ") has no rank ", format, " reads (\"",
      p.rank(), "\"; a rank is ", kRankForms, "); correct it with tournament update --rank"));
}

// A round paired with boards still without a result: refused, naming each
// board (and its game), rather than written as `unplayed_as` for players who
// will play. OK when every pairing of a paired round has its result.
absl::Status CheckResultsIn(const v1::Tournament& t, const v1::StandingsReport& report,
                            absl::string_view format, absl::string_view unplayed_as) {
  std::map<int, std::vector<std::string>> open;
  for (const ScoredPairing& p : report.pairings()) {
    if (p.status() != ScoredPairing::PENDING || p.round() == 0) continue;
    open[p.round()].push_back(p.game_id().empty()
                                  ? absl::StrCat("board ", p.board())
                                  : absl::StrCat("board ", p.board(), " (game ", p.game_id(), ")"));
  }
  if (open.empty()) return absl::OkStatus();
  std::vector<std::string> rounds;
  for (const auto& [round, boards] : open)
    rounds.push_back(absl::StrCat("round ", round, " ", absl::StrJoin(boards, ", ")));
  return absl::FailedPreconditionError(absl::StrCat(
      format, ": no result yet for ", absl::StrJoin(rounds, "; "), "; the file would write ",
      unplayed_as, ". Record or enter each result (tournament result ", t.tournament_id(),
      " --round N --board B --outcome ...), then export again; the export has no option to "
      "leave a round out"));
}

// A word the file writes that the tournament may hold in its own
// language: its title, its location.
struct FileWord {
  absl::string_view what;  // "title"
  absl::string_view flag;  // "--title"
};
constexpr FileWord kTitle{"title", "--title"};
constexpr FileWord kPlace{"location", "--place"};

// The word the file writes: the tournament's own when it is ASCII, else the
// one given for the file (tournament export --title, --place: the
// exporter's word, which `verify --export` takes back from the file). One
// that is not ASCII with none given is refused, naming the option. One
// given for an ASCII word is refused too: the file's word is then the
// log's, which `verify --export` checks as every other line.
absl::StatusOr<std::string> WordFor(absl::string_view format, const v1::Tournament& t,
                                    const FileWord& word, absl::string_view own,
                                    absl::string_view given) {
  const bool ascii = IsPrintableAscii(own);
  if (given.empty() && !ascii) {
    return absl::FailedPreconditionError(
        absl::StrCat(format, ": the tournament's ", word.what, " \"", own,
                     "\" is not ASCII, and the file must be; give its ", word.what,
                     " in Latin letters for this file with ", word.flag, " (tournament export ",
                     t.tournament_id(), " --format ", format == "EGD .h9" ? "h9" : "aga", " ",
                     word.flag, " \"...\", e.g. its romanized or English name)"));
  }
  if (!given.empty() && ascii) {
    const std::string own_word =
        own.empty()
            ? absl::StrCat("has no ", word.what, ", and the file writes none")
            : absl::StrCat("'s ", word.what, " \"", own, "\" is ASCII and is written as it is");
    return absl::FailedPreconditionError(absl::StrCat(format, ": the tournament", own_word, "; ",
                                                      word.flag, " is for a ", word.what,
                                                      " that is not"));
  }
  return std::string(given.empty() ? own : given);
}

// INVALID_ARGUMENT, saying why, for `text` given as the file's `word`
// ("title", "place") that no file of `format` can hold: empty, not
// printable ASCII, a space at either end, a ']' closing an .h9 header.
// (The AGA's ',' in a title is CheckExportTitle's own.)
absl::Status CheckGivenWord(v1::ExportTournamentRequest::Format format, absl::string_view word,
                            absl::string_view text) {
  const bool egd = format == v1::ExportTournamentRequest::EGD_H9;
  const std::string what =
      absl::StrCat(word, " \"", text, "\" for the ", egd ? "EGD .h9" : "AGA results", " file: ");
  if (text.empty()) return absl::InvalidArgumentError(absl::StrCat(what, "it is empty"));
  if (!IsPrintableAscii(text)) {
    return absl::InvalidArgumentError(
        absl::StrCat(what, "it must be printable ASCII (letters, digits, punctuation, spaces)"));
  }
  if (text.front() == ' ' || text.back() == ' ') {
    return absl::InvalidArgumentError(absl::StrCat(what, "a space at either end"));
  }
  if (egd && absl::StrContains(text, ']')) {
    return absl::InvalidArgumentError(absl::StrCat(what, "a ']', which would close the file's ",
                                                   word == "title" ? "EV" : "PC", "[...] header"));
  }
  return absl::OkStatus();
}

}  // namespace

std::string EgdByeToken(const v1::Tournament& t) {
  const int b = t.settings().bye_points();
  return b == 2 ? "0+" : b == 1 ? "0=" : "0-";
}

absl::Status CheckExportTitle(v1::ExportTournamentRequest::Format format, absl::string_view title) {
  if (absl::Status s = CheckGivenWord(format, "title", title); !s.ok()) return s;
  if (format == v1::ExportTournamentRequest::AGA && absl::StrContains(title, ',')) {
    return absl::InvalidArgumentError(
        absl::StrCat("title \"", title,
                     "\" for the AGA results file: a ',': the AGA's TOURNEY line is \"event "
                     "name, location, dates\", its parts separated by commas, so a comma would "
                     "end the name there"));
  }
  return absl::OkStatus();
}

absl::Status CheckExportPlace(v1::ExportTournamentRequest::Format format, absl::string_view place) {
  return CheckGivenWord(format, "place", place);
}

std::vector<GivenWords> WordsWrittenIn(v1::ExportTournamentRequest::Format format,
                                       absl::string_view file) {
  std::vector<GivenWords> out;
  for (absl::string_view line : absl::StrSplit(file, '\n')) {
    if (format == v1::ExportTournamentRequest::EGD_H9 && absl::ConsumePrefix(&line, "; EV[") &&
        absl::ConsumeSuffix(&line, "]")) {
      out.push_back({std::string(line), ""});
    }
    // "PC[CN,Beijing]": the country code, then the place.
    if (format == v1::ExportTournamentRequest::EGD_H9 && absl::ConsumePrefix(&line, "; PC[") &&
        absl::ConsumeSuffix(&line, "]") && line.find(',') != absl::string_view::npos) {
      const std::string place(line.substr(line.find(',') + 1));
      const std::vector<GivenWords> titles = out;
      out.push_back({"", place});
      for (const GivenWords& w : titles) out.push_back({w.title, place});
    }
    // "TOURNEY title, place": a given title has no ',', an ASCII title of
    // the tournament's own may; each split is a reading.
    if (format == v1::ExportTournamentRequest::AGA && absl::ConsumePrefix(&line, "TOURNEY ")) {
      out.push_back({std::string(line.substr(0, line.find(','))), ""});
      for (size_t at = line.find(", "); at != absl::string_view::npos;
           at = line.find(", ", at + 1)) {
        out.push_back({"", std::string(line.substr(at + 2))});
        out.push_back({std::string(line.substr(0, at)), std::string(line.substr(at + 2))});
      }
    }
  }
  return out;
}

std::string SpreadsheetCell(absl::string_view cell) {
  if (cell.empty() || absl::string_view("=+-@\t\r").find(cell.front()) == absl::string_view::npos)
    return std::string(cell);
  // A number is no formula: "-1.50" (a total score) stays a number a
  // spreadsheet sorts as one.
  double number = 0;
  if ((cell.front() == '-' || cell.front() == '+') && cell.size() > 1 &&
      absl::ascii_isdigit(static_cast<unsigned char>(cell[1])) &&
      cell.find_first_not_of("0123456789.", 1) == absl::string_view::npos &&
      absl::SimpleAtod(cell, &number)) {
    return std::string(cell);
  }
  return absl::StrCat("'", cell);
}

std::string EgdToken(const ScoredPairing& p, const std::string& side) {
  if (!Counts(p)) return "0-";
  // OpenGotha marks a game won by default with "!" in place of the "/".
  return absl::StrCat(Symbol(p, side), p.by_default() ? "!" : "/", p.black() == side ? "b" : "w",
                      p.handicap());
}

std::string AgaToken(const ScoredPairing& p) {
  if (p.status() != ScoredPairing::DECIDED || p.by_default()) return "omitted";
  if (p.outcome() == v1::Result::BLACK_WINS) return "B";
  if (p.outcome() == v1::Result::WHITE_WINS) return "W";
  return "omitted";
}

// The .h9 file's header: class, event, place, dates, komi, time,
// corrections and the column heads.
std::string EgdHeader(const v1::Tournament& t, const v1::StandingsReport& report,
                      absl::string_view second, absl::string_view title, absl::string_view place) {
  const v1::TournamentSettings& s = t.settings();
  std::string out;
  absl::StrAppend(&out, "; CL[", s.egf_class(), "]\n; EV[", title, "]\n; PC[", s.country(), ",",
                  place, "]\n");
  if (!s.begin_date().empty()) {
    absl::StrAppend(&out, "; DT[", s.begin_date(), ",",
                    s.end_date().empty() ? s.begin_date() : s.end_date(), "]\n");
  }
  absl::StrAppend(&out, "; KM[", absl::StrFormat("%g", s.komi() * 2), "]\n; TM[",
                  s.adjusted_time_minutes(), "]\n");
  absl::StrAppend(&out, "; CM[standings per art. 27 of the ", Ruleset(t),
                  " rules: Pts = 2 a win, 1 a draw; reasons are in the sidecar]\n");
  if (report.has_checkpoint()) absl::StrAppend(&out, "; ", DerivedFromWords(report), "\n");
  for (const std::string& c : CorrectionLines(t, true))
    absl::StrAppend(&out, "; correction ", c, "\n");
  absl::StrAppend(&out, ";\n");
  absl::StrAppend(&out, absl::StrFormat("; Pl %-30s Rk Co Club %4s %4s %4s %4s\n", "Name", "Pts",
                                        second, "B", "-"));
  return out;
}

// A player's round in the .h9 table: the opponent's place and the result,
// a bye, or "0-" for none.
std::string EgdRound(const v1::Tournament& t, const v1::StandingsReport& report,
                     const std::map<std::string, int>& place, const std::string& id, int r) {
  const ScoredPairing* sp = InRound(report, id, r);
  if (sp == nullptr) return HadBye(t, id, r) ? EgdByeToken(t) : "0-";
  if (!Counts(*sp)) return "0-";
  const std::string& opp = sp->black() == id ? sp->white() : sp->black();
  auto at = place.find(opp);
  return absl::StrCat(at == place.end() ? 0 : at->second, EgdToken(*sp, id));
}

// Why the tournament's settings cannot be written as an EGD .h9 file, or OK.
absl::Status CheckEgdSettings(const v1::Tournament& t) {
  const v1::TournamentSettings& s = t.settings();
  const auto refuse = [](absl::string_view why) {
    return absl::FailedPreconditionError(absl::StrCat("EGD .h9: ", why));
  };
  if (s.egf_class() != "A" && s.egf_class() != "B" && s.egf_class() != "C" &&
      s.egf_class() != "D") {
    return refuse("the tournament's EGF class (CL[], A to D) is not set");
  }
  if (s.adjusted_time_minutes() <= 0)
    return refuse("the tournament's adjusted time in minutes (TM[]) is not set");
  // The location is written as the title is (WordFor, --place).
  if (!IsPrintableAscii(s.country())) {
    return refuse(absl::StrCat("the tournament's country \"", s.country(), "\" is not ASCII"));
  }
  return absl::OkStatus();
}

// Why a player's name, country or club cannot go on an .h9 line, or OK:
// text that is not ASCII, or a ';', which begins a comment in the EGF table
// (everything after it on the line is ignored), so the player's line, and
// their results with it, would be cut there.
absl::Status CheckEgdPlayerText(const v1::TournamentPlayer& p, const RomanizedName& name) {
  if (!IsPrintableAscii(p.country()) || !IsPrintableAscii(p.club())) {
    return absl::FailedPreconditionError(
        absl::StrCat("EGD .h9: player '", p.id(), "': country and club must be ASCII"));
  }
  using Field = std::tuple<absl::string_view, absl::string_view, absl::string_view>;
  for (const auto& [what, text, flag] :
       {Field{"family name", name.family, "--romanized"},
        Field{"given name", name.given, "--romanized"}, Field{"club", p.club(), "--club"}}) {
    if (absl::StrContains(text, ';')) {
      return absl::FailedPreconditionError(absl::StrCat(
          "EGD .h9: player '", p.id(), "' (", NativeName(p), "): the ", what, " \"", text,
          "\" has a ';', and ';' begins a comment in the EGF format (the rest of the line, with "
          "the player's results, would be lost); correct it with tournament update --player ",
          p.id(), " ", flag));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<std::string> ExportEgdH9(const v1::Tournament& t, const v1::StandingsReport& report,
                                        absl::string_view given_title,
                                        absl::string_view given_place) {
  const v1::TournamentSettings& s = t.settings();
  const auto refuse = [](absl::string_view why) {
    return absl::FailedPreconditionError(absl::StrCat("EGD .h9: ", why));
  };
  if (absl::Status st = CheckEgdSettings(t); !st.ok()) return st;
  absl::StatusOr<std::string> title = WordFor("EGD .h9", t, kTitle, t.title(), given_title);
  if (!title.ok()) return title.status();
  absl::StatusOr<std::string> where = WordFor("EGD .h9", t, kPlace, s.location(), given_place);
  if (!where.ok()) return where.status();
  if (absl::Status st =
          CheckResultsIn(t, report, "EGD .h9", "\"0-\" (did not play) for their players");
      !st.ok()) {
    return st;
  }
  const auto& rows = PlayerRows(t, report);
  std::map<std::string, int> place;
  for (int i = 0; i < rows.size(); ++i) place[rows[i].id()] = i + 1;
  const bool swiss = s.system() == v1::TournamentSettings::SWISS;
  const bool by_opponents = s.swiss_method() == v1::TournamentSettings::POINTS_THEN_OPPONENTS;
  std::string out = EgdHeader(t, report,
                              !swiss         ? "A"
                              : by_opponents ? "Opp"
                                             : "TS",
                              *title, *where);
  const std::vector<int> rounds = RoundNumbers(t);
  for (int i = 0; i < rows.size(); ++i) {
    const v1::Standing& st = rows[i];
    const v1::TournamentPlayer* p = FindPlayer(t, st.id());
    absl::StatusOr<RomanizedName> name = Romanized(*p, "EGD .h9");
    if (!name.ok()) return refuse(name.status().message());
    if (name->given.empty()) {
      return refuse(absl::StrCat("player '", p->id(), "' (", NativeName(*p),
                                 ") has no given name; EGD needs both"));
    }
    absl::StatusOr<std::string> rank = RankOf(*p, "EGD .h9");
    if (!rank.ok()) return rank.status();
    if (absl::Status fields = CheckEgdPlayerText(*p, *name); !fields.ok()) return fields;
    const std::string country =
        p->country().size() == 2 ? absl::AsciiStrToUpper(p->country()) : "XX";
    const std::string club = p->club().empty() ? "xxxx" : NoSpaces(p->club());
    const std::string criterion = !swiss         ? Decimal(st.tie_break_a())
                                  : by_opponents ? absl::StrFormat("%g", st.opponents_score())
                                                 : Decimal(st.total_score());
    std::string line =
        absl::StrFormat("%4d %-30s %3s %2s %4s %4d %4s %4d %4d", i + 1,
                        absl::StrCat(NoSpaces(name->family), " ", NoSpaces(name->given)), *rank,
                        country, club, st.points(), criterion, st.warnings(), 0);
    for (int r : rounds) {
      absl::StrAppend(&line, absl::StrFormat(" %8s", EgdRound(t, report, place, st.id(), r)));
    }
    // The EGD's own key for the player, where known: "|PIN" closes the line,
    // so the rating list need not match the player by name.
    if (!p->egf_pin().empty()) absl::StrAppend(&line, " |", p->egf_pin());
    absl::StrAppend(&out, line, "\n");
  }
  return out;
}

std::string AgaId(const std::map<std::string, std::string>& aga, const std::string& id) {
  auto it = aga.find(id);
  return it == aga.end() ? std::string() : it->second;
}

// The AGA results file's games of round `r`: a line a result AGA reads,
// a comment for one it does not.
std::string AgaGames(const v1::Tournament& t, const v1::StandingsReport& report,
                     const std::map<std::string, std::string>& aga, int r) {
  // Komi a whole number: the komi's points rounded down (7.5 -> 7) in an
  // even game; 0 with a handicap, a handicap of 1 (no komi) written as 0.
  const int even_komi = static_cast<int>(std::floor(t.settings().komi() * 2));
  std::string out = absl::StrCat("\nGAMES ", r, "\n");
  for (const ScoredPairing& p : report.pairings()) {
    if (p.round() != r) continue;
    const std::string token = AgaToken(p);
    const std::string white = AgaId(aga, p.white());
    const std::string black = AgaId(aga, p.black());
    if (token != "omitted") {
      const int handicap = p.handicap() == 1 ? 0 : p.handicap();
      const int komi = p.handicap() >= 1 ? 0 : even_komi;
      absl::StrAppend(&out, white, "\t", black, "\t", token, "\t", handicap, "\t", komi, "\n");
    } else if (p.status() != ScoredPairing::PENDING) {
      absl::StrAppend(&out, "# board ", p.board(), ": ", white, " (W) ", black, " (B) ",
                      p.status() == ScoredPairing::MISMATCH ? "MISMATCH"
                                                            : v1::Result::Outcome_Name(p.outcome()),
                      p.status() == ScoredPairing::VOID ? " void"
                      : p.by_default()                  ? " by default"
                                                        : "",
                      ": not an AGA result, see the sidecar\n");
    }
  }
  return out;
}

// The AGA header's "rules of play" (its format page: "e.g., AGA, Ing,
// Japanese") for the tournament's ruleset, "ID[@VERSION][+SUPPLEMENT]":
// both Chinese rulesets (cn-2002, cn-1988) are the Chinese rules. Nullopt
// for a ruleset arbiter knows no rules of play for.
std::optional<std::string> AgaRulesOfPlay(const v1::Tournament& t) {
  const std::string spec = Ruleset(t);
  const std::string id = spec.substr(0, spec.find_first_of("@+"));
  if (id == "cn-2002" || id == "cn-1988") return "Chinese";
  return std::nullopt;
}

// Why the tournament cannot be written as an AGA results file yet (a
// ruleset without rules of play to name, a board without a result), or OK.
absl::Status CheckAga(const v1::Tournament& t, const v1::StandingsReport& report) {
  if (!AgaRulesOfPlay(t).has_value()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "AGA results: the tournament's ruleset \"", Ruleset(t),
        "\" has no rules of play arbiter can name for the file's rules= line, which the AGA "
        "requires (cn-2002 and cn-1988 are Chinese)"));
  }
  return CheckResultsIn(t, report, "AGA results",
                        "no line for them (as if the game were not played)");
}

absl::StatusOr<std::string> ExportAga(const v1::Tournament& t, const v1::StandingsReport& report,
                                      absl::string_view given_title,
                                      absl::string_view given_place) {
  const v1::TournamentSettings& s = t.settings();
  const auto refuse = [](absl::string_view why) {
    return absl::FailedPreconditionError(absl::StrCat("AGA results: ", why));
  };
  absl::StatusOr<std::string> title = WordFor("AGA results", t, kTitle, t.title(), given_title);
  if (!title.ok()) return title.status();
  absl::StatusOr<std::string> place = WordFor("AGA results", t, kPlace, s.location(), given_place);
  if (!place.ok()) return place.status();
  if (absl::Status st = CheckAga(t, report); !st.ok()) return st;
  // AGA ids are numbers; players without one get a temporary id, from 99999
  // down, skipping the ids in use (as OpenGotha does).
  std::set<int> used;
  for (const v1::TournamentPlayer& p : t.players()) {
    if (p.aga_id().empty()) continue;
    int id = 0;
    if (!absl::SimpleAtoi(p.aga_id(), &id) || id <= 0) {
      return refuse(
          absl::StrCat("player '", p.id(), "': AGA id \"", p.aga_id(), "\" is not a number"));
    }
    used.insert(id);
  }
  std::map<std::string, std::string> aga;
  int next = 99999;
  std::string players;
  for (const v1::TournamentPlayer& p : t.players()) {
    if (p.aga_id().empty()) {
      while (used.contains(next)) --next;
      used.insert(next);
      aga[p.id()] = absl::StrCat(next);
    } else {
      aga[p.id()] = p.aga_id();
    }
    absl::StatusOr<RomanizedName> name = Romanized(p, "the AGA results file");
    if (!name.ok()) return refuse(name.status().message());
    if (name->given.empty()) {
      return refuse(absl::StrCat("player '", p.id(), "' (", NativeName(p),
                                 ") has no given name; AGA names are \"Last, First\""));
    }
    absl::StatusOr<std::string> rank = RankOf(p, "AGA results");
    if (!rank.ok()) return rank.status();
    absl::StrAppend(&players, aga[p.id()], "\t", name->family, ", ", name->given, "\t", *rank,
                    "\n");
  }
  std::string out;
  absl::StrAppend(&out, "TOURNEY ", *title, place->empty() ? "" : ", ", *place, "\n");
  if (!s.begin_date().empty()) absl::StrAppend(&out, "\tstart=", s.begin_date(), "\n");
  if (!s.end_date().empty()) absl::StrAppend(&out, "\tfinish=", s.end_date(), "\n");
  absl::StrAppend(&out, "\trules=", *AgaRulesOfPlay(t), "\n");
  if (report.has_checkpoint()) absl::StrAppend(&out, "# ", DerivedFromWords(report), "\n");
  for (const std::string& c : CorrectionLines(t, true))
    absl::StrAppend(&out, "# correction ", c, "\n");
  absl::StrAppend(&out, "PLAYERS\n", players);
  for (int r : RoundNumbers(t)) out += AgaGames(t, report, aga, r);
  out += "\nEND\n";
  return out;
}

std::string ExportCsv(const v1::Tournament& t, const v1::StandingsReport& report,
                      bool for_spreadsheet) {
  const std::vector<int> rounds = RoundNumbers(t);
  const bool teams = t.settings().teams();
  const int boards = report.standings().empty() ? 0 : report.standings(0).board_by_board_size();
  // The columns of the event's system only (standings_columns.h).
  const std::vector<StandingsColumn> columns = StandingsColumns(t.settings(), boards);
  std::vector<std::string> header = {"rank", "id", "name"};
  for (const StandingsColumn& c : columns) header.push_back(c.csv);
  if (!teams) header.push_back("withdrawn");
  header.push_back("decided_by");
  if (!teams) {
    for (int r : rounds) header.push_back(absl::StrCat("round_", r));
  }
  // The record it came from, last, so positional readers keep their columns.
  if (report.has_checkpoint()) header.emplace_back(kDerivedFromColumn);
  // The spreadsheet flavour: a byte-order mark, so Excel reads UTF-8.
  std::string out = for_spreadsheet ? "\xEF\xBB\xBF" : "";
  out += absl::StrJoin(header, ",") + "\r\n";
  for (const v1::Standing& st : report.standings()) {
    std::vector<std::string> row = {absl::StrCat(st.rank()), st.id(), st.name()};
    for (const StandingsColumn& c : columns) row.push_back(ColumnValue(c, st));
    if (!teams) row.push_back(st.withdrawn() ? "yes" : "no");
    row.push_back(st.decided_by());
    if (!teams) {
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
    if (report.has_checkpoint()) row.push_back(RecordWords(report));
    for (std::string& f : row) f = CsvField(for_spreadsheet ? SpreadsheetCell(f) : f);
    out += absl::StrJoin(row, ",") + "\r\n";
  }
  return out;
}

}  // namespace arbiter::tournament
