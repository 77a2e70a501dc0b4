// The result formats federations and rating lists read, written from a
// StandingsReport: EGD's .h9 table, the AGA results file, and CSV. None of
// them can say why a game ended as it did; sidecar.h writes that beside
// them. Pure: each returns the file's text.
//
// EGD .h9 (the EGF tournament table, as OpenGotha's generateH9File writes
// it): headers "; CL[class]", "; EV[name]", "; PC[country,city]",
// "; DT[begin,end]", "; KM[komi]", "; TM[adjusted time, minutes]",
// "; CM[...]", then one line per player in standings order: place, the
// romanized "Family Given" (spaces inside a name as "_"), rank ("3d",
// "5k"), country ("XX" when unknown), club ("xxxx" when unknown), four
// criteria (Pts; A, TS or opponents' points; B; 0) and one entry per round:
// <opponent's place><+|-|=>/<b|w><handicap>, with "!" in place of "/" for
// a game not played over the board ("5+!w0", a lateness or art. 28
// forfeit); "0+", "0=" or "0-" for a bye worth 2, 1 or 0 points; "0-" for
// a round without a counted game (void, mismatched). Both-lose and
// no-result are "-" for both. ASCII only. A paired board still without a
// result is refused (the table's "0-" is a free round), as in AGA.
//
// AGA results (as OpenGotha's generateAGAResultsFile writes them): TOURNEY
// line, start= and finish=, rules= (the AGA requires it: "Chinese" for
// cn-2002 and cn-1988, another ruleset refused), PLAYERS ("<id>\t<Last>,
// <First>\t<rank>", ids numbers, temporary ones from 99999 down for
// players without one, ranks "5k" / "3d"), then "GAMES <round>" and one
// line a game won over the board:
// "<white id>\t<black id>\t<W|B>\t<handicap>\t<komi>", komi a
// whole number (the komi's points, rounded down, with no handicap; 0 with
// one; a handicap of 1 written as 0), then END. Draws, both-lose, no
// result, forfeits, voids and mismatches are "#" comment lines here and
// listed in the sidecar. ASCII only.
//
// CSV (RFC 4180): one row per standing with the art. 27 criteria of the
// event's system only (standings_columns.h: no total score for a round
// robin, no A for a Swiss event), then, individual events, one
// column per round ("<opponent id> <+|-|=>/<b|w>", "!" by default).
// For a spreadsheet (opt-in): the same rows after a UTF-8 byte-order mark
// (Excel reads UTF-8 without one as the ANSI code page), and each cell that
// begins with '=', '+', '-', '@', a tab or a carriage return, and is not a
// decimal number, prefixed with a single quote (OWASP's CSV injection
// advice: such a cell is read as a formula); the quote stays in the cell.
#ifndef ARBITER_ADJUDICATOR_TOURNAMENT_FORMATS_H_
#define ARBITER_ADJUDICATOR_TOURNAMENT_FORMATS_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

#include "arbiter/v1/tournament.pb.h"

namespace arbiter::tournament {

// FAILED_PRECONDITION, naming the player or the setting, for what the
// format cannot hold: a player without a romanized name (names.h), a
// missing given name or rank, a title or location that is not ASCII (and
// none given for the file), no
// EGF class or adjusted time (EGD), a ';' in a name or club (EGD: it begins
// a comment there), an AGA id that is not a number or a ruleset without
// rules of play to name (AGA),
// a paired board without a result yet (both, naming round, board, game).
// `title` and `place`, when not empty, are written in place of the
// tournament's own title and location (export_formats.h ExportOptions;
// CheckExportTitle and CheckExportPlace first). A title or location that is
// not ASCII, with none given, is refused naming `--title` or `--place`; one
// given for an ASCII one is refused too (the file then writes the log's).
absl::StatusOr<std::string> ExportEgdH9(const v1::Tournament& t, const v1::StandingsReport& report,
                                        absl::string_view title = {}, absl::string_view place = {});
absl::StatusOr<std::string> ExportAga(const v1::Tournament& t, const v1::StandingsReport& report,
                                      absl::string_view title = {}, absl::string_view place = {});
std::string ExportCsv(const v1::Tournament& t, const v1::StandingsReport& report,
                      bool for_spreadsheet = false);

// INVALID_ARGUMENT, saying why, for a title given for EGD_H9 or AGA that the
// file cannot hold: empty, not printable ASCII, a space at either end, a
// ']' (.h9: it would close the EV[] header) or a ',' (AGA: the TOURNEY line
// is "event name, location, dates", its parts comma separated).
absl::Status CheckExportTitle(v1::ExportTournamentRequest::Format format, absl::string_view title);

// The same for a place given in place of the tournament's location (北京 as
// "Beijing"): empty, not printable ASCII, a space at either end, a ']'
// (.h9: it would close the PC[] header). A ',' is the AGA's own way of
// writing a place ("Seattle, WA"), and .h9's PC[] names the country before
// the first one.
absl::Status CheckExportPlace(v1::ExportTournamentRequest::Format format, absl::string_view place);

// What an .h9 or AGA file may have been given at export: a title, a place
// (either empty when not given).
struct GivenWords {
  std::string title;
  std::string place;
};

// The readings of an .h9 or AGA file's title and place (its EV[] and PC[]
// headers; its TOURNEY line, split at each ", "), each a title, a place or
// both, in that order; none for a file without them or another format:
// what `verify --export` gives back to the export of a file exported with
// --title or --place, to see whether one of them is the file.
std::vector<GivenWords> WordsWrittenIn(v1::ExportTournamentRequest::Format format,
                                       absl::string_view file);

// A CSV cell as the spreadsheet flavour writes it (before RFC 4180 quoting).
std::string SpreadsheetCell(absl::string_view cell);

// The .h9 token of a credited bye: "0+", "0=" or "0-" for the bye setting.
std::string EgdByeToken(const v1::Tournament& t);

// How each format writes one pairing (for the sidecar's exportedAs).
std::string EgdToken(const v1::ScoredPairing& p, const std::string& side);  // from `side`'s view
std::string AgaToken(const v1::ScoredPairing& p);                           // "W", "B" or "omitted"

}  // namespace arbiter::tournament

#endif  // ARBITER_ADJUDICATOR_TOURNAMENT_FORMATS_H_
