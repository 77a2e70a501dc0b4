// The game export formats (`arbiter export GAME --format`, ExportGame, the
// console's bundle download), one row each: the CLI's name for it, the
// served file's extension and content type, and its writer. Everything the
// CLI, the server and the console say about a format comes from its row,
// so a new format is its writer plus one row (recipe: README.md, "A new
// export format").
#ifndef ARBITER_ADJUDICATOR_SERVICE_GAME_EXPORTS_H_
#define ARBITER_ADJUDICATOR_SERVICE_GAME_EXPORTS_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "adjudicator/service/game_folds.h"
#include "arbiter/v1/service.pb.h"
#include "ledger/ledger.h"

namespace arbiter::service {

struct GameExportFormat {
  v1::ExportGameRequest::Format format;
  absl::string_view name;          // as `arbiter export --format` takes it: "sgf"
  absl::string_view label;         // in help: "sgf (rulings as comments)"
  absl::string_view extension;     // of the served file: ".sgf"
  absl::string_view content_type;  // of the served file
  bool binary;                     // not for a terminal: the CLI asks for --out
  // The whole file of game `id`. The read model's and the ledger's errors
  // (NOT_FOUND for an unknown game, FAILED_PRECONDITION for a bundle no
  // checkpoint covers yet).
  absl::StatusOr<std::string> (*write)(ledger::Ledger& ledger, GameFolds& folds,
                                       const std::string& id);
};

// Every format, in the order help text lists them.
absl::Span<const GameExportFormat> GameExportFormats();

// The row of `format`, or of the --format `name` (ASCII case ignored);
// nullptr when there is none.
const GameExportFormat* FindGameExport(v1::ExportGameRequest::Format format);
const GameExportFormat* FindGameExport(absl::string_view name);

// The labels as a list for help and errors: "sgf (rulings as comments), json or bundle".
const std::string& GameExportNames();

}  // namespace arbiter::service

#endif  // ARBITER_ADJUDICATOR_SERVICE_GAME_EXPORTS_H_
