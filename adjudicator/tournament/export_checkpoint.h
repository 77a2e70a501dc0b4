// The record an export names (DOMAIN.md, "Exports name the record they came
// from"): the tournament's stream and the signed checkpoint of the log it
// was derived at, written into the file in the format's own syntax, and read
// back from a file by `arbiter verify --export`. Pure.
//
// The words, "derived from tournaments/ID at checkpoint ORIGIN SIZE ROOT"
// (ROOT the checkpoint note's base64), stand as
//   .h9       a header line   "; derived from ..."
//   AGA       a comment line  "# derived from ..."
//   OpenGotha a comment       "<!-- derived from ... -->" after the prolog
//   CSV       the last column, `derived_from`, "tournaments/ID at checkpoint
//             ORIGIN SIZE ROOT" on every row (Python's csv module and a
//             spreadsheet read a "#" line as a row, so a column it is)
//   JSON      the report's `checkpoint` field and its `tournament`.
// The stream and the origin are written with every byte outside printable
// ASCII, and '%', ',', '"', and a '-' after a '-' or at the end, as %XX:
// so the words are one line, one CSV field with no quoting, and legal
// inside an XML comment, whatever the log's origin (a C2SP key name: any
// UTF-8 without spaces or '+').
#ifndef ARBITER_ADJUDICATOR_TOURNAMENT_EXPORT_CHECKPOINT_H_
#define ARBITER_ADJUDICATOR_TOURNAMENT_EXPORT_CHECKPOINT_H_

#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "arbiter/v1/tournament.pb.h"

namespace arbiter::tournament {

// "tournaments/ID at checkpoint ORIGIN SIZE ROOT", for the report's
// tournament and checkpoint (the CSV's cell), and the same after "derived
// from " (the comment line's words).
std::string RecordWords(const v1::StandingsReport& report);
std::string DerivedFromWords(const v1::StandingsReport& report);

// The CSV column that carries the words.
inline constexpr absl::string_view kDerivedFromColumn = "derived_from";

// What a file names.
struct NamedRecord {
  v1::ExportTournamentRequest::Format format = v1::ExportTournamentRequest::FORMAT_UNSPECIFIED;
  std::string tournament_id;  // "cup", of "tournaments/cup"
  v1::ExportCheckpoint checkpoint;
};

// The format of an exported file and the record it names. INVALID_ARGUMENT,
// saying what it lacks, for a file that is none of the five formats or
// names no record (written before exports named one, or with the words cut).
absl::StatusOr<NamedRecord> ReadNamedRecord(absl::string_view file);

// The first line where two texts differ (1-based), with each text's line
// ("" past its end); nullopt when they are equal.
struct LineDifference {
  int line = 0;
  std::string ours;
  std::string theirs;
};
std::optional<LineDifference> FirstDifference(absl::string_view ours, absl::string_view theirs);

}  // namespace arbiter::tournament

#endif  // ARBITER_ADJUDICATOR_TOURNAMENT_EXPORT_CHECKPOINT_H_
