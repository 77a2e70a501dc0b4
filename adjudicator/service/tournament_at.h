// A tournament's export as the log gives it at one tree size: the
// tournament's events at or before that position and each of its games
// folded again from its own events at or before it (the judge, under the
// game's pinned rules), nothing after. The server derives every export so,
// at a signed checkpoint's size (tournament_service.h), and `arbiter verify
// --export` derives it again the same way from the log it is given, so the
// two can be compared line by line (DOMAIN.md, "Exports name the record
// they came from").
#ifndef ARBITER_ADJUDICATOR_SERVICE_TOURNAMENT_AT_H_
#define ARBITER_ADJUDICATOR_SERVICE_TOURNAMENT_AT_H_

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "adjudicator/engine/adjudicator.h"
#include "adjudicator/tournament/export_formats.h"
#include "adjudicator/tournament/game_facts.h"
#include "arbiter/v1/ledger.pb.h"
#include "arbiter/v1/tournament.pb.h"
#include "ledger/hash.h"
#include "ledger/ledger.h"
#include "ledger/log_source.h"
#include "ledger/store.h"

namespace arbiter::tournament {

// The two reads a derivation needs, from a running ledger or from any
// store's reader.
struct LogReads {
  // Up to `max` entries of the stream (a game id or "tournaments/ID") with
  // revision > `after`, in order.
  std::function<absl::StatusOr<std::vector<v1::LedgerEntry>>(const std::string& stream,
                                                             uint64_t after, size_t max)>
      read_stream;
  // The rules pin recorded at the game's creation.
  std::function<absl::StatusOr<std::string>(const std::string& game_id)> rules_pin;
};
// Neither is owned; each must outlive the reads.
LogReads ReadsOf(ledger::LogSource& log);
LogReads ReadsOf(ledger::Ledger& ledger);

// What the standings read of a game's fold (game_facts.h): the result, the
// warnings, the deciding ruling, the recorded players, the withdrawals; for
// a cancelled game its reason only.
GameFacts GameFactsOf(const Adjudicator& game);

struct ExportAtSize {
  // The file (stamped with `checkpoint`), its name and type, the sidecar.
  v1::ExportTournamentResponse response;
  // Each entry the export was derived from: its position and leaf hash
  // (ledger/stream.h), for a verifier to find in the signed tree.
  std::vector<std::pair<uint64_t, ledger::Hash>> leaves;
};

// The export of tournament `id` in `format` as the log `log` gives it at
// `checkpoint.tree_size`, naming `checkpoint`. NOT_FOUND when the
// tournament has no event at or before that size; INVALID_ARGUMENT for no
// such format; DATA_LOSS when a stored event no longer parses or folds;
// FAILED_PRECONDITION for what the format cannot hold (its writer's);
// the reads' errors.
// `options` as the request gives them (export_formats.h): INVALID_ARGUMENT
// for one the format does not take.
absl::StatusOr<ExportAtSize> ExportAt(const LogReads& log, const std::string& id,
                                      v1::ExportTournamentRequest::Format format,
                                      const v1::ExportCheckpoint& checkpoint,
                                      const ExportOptions& options = {});

// The log as `arbiter verify --export` checks it for a file naming
// `named`, once for every export it then derives there (a file's title and
// place may have several readings, each an export of its own).
struct NamedLog {
  v1::ExportCheckpoint named;
  std::vector<ledger::Hash> leaves;  // the first named.tree_size() leaves, checked
  std::string why_not;               // non-empty: the log does not stand behind `named`
};

// The log `reader` reads (the ledger `store`) checked to stand behind
// `named`: its origin is `named`'s, it has a checkpoint of that size signed
// by `key_der` (`key_source` says whose, for the reason) with `named`'s
// root, and its first leaves give that root. Otherwise `why_not` says which
// fails. Errors: the reads'.
absl::StatusOr<NamedLog> CheckNamedLog(ledger::Store& store, ledger::LogSource& reader,
                                       const std::string& key_der, const std::string& key_source,
                                       const v1::ExportCheckpoint& named);

// What `arbiter verify --export` finds for a file naming `log.named`: the
// export the log gives there, or why the log does not stand behind it.
struct VerifiedExport {
  std::string content;  // the file the log gives at the named size
  std::string why_not;  // non-empty: the named checkpoint is not the log's
};

// The export of tournament `id` in `format` derived from `reader` at
// `log.named`'s size, when `log` stands behind it (else its why_not) and
// every event the export reads hashes to its leaf. Errors: the reads',
// ExportAt's.
absl::StatusOr<VerifiedExport> DeriveNamedExport(const NamedLog& log, ledger::LogSource& reader,
                                                 const std::string& id,
                                                 v1::ExportTournamentRequest::Format format,
                                                 const ExportOptions& options = {});

}  // namespace arbiter::tournament

#endif  // ARBITER_ADJUDICATOR_SERVICE_TOURNAMENT_AT_H_
