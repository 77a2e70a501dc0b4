// The upgrade of a data folder of an earlier release (issue 44.7): its
// tournaments.db, the tournaments' side table, moved into the ledger's
// tournament streams once (proto/DOMAIN.md, "Tournaments in the ledger").
#ifndef ARBITER_ADJUDICATOR_SERVICE_TOURNAMENT_MIGRATION_H_
#define ARBITER_ADJUDICATOR_SERVICE_TOURNAMENT_MIGRATION_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "arbiter/v1/tournament.pb.h"
#include "ledger/ledger.h"

namespace arbiter::tournament {

inline constexpr char kLegacyTournamentsFile[] = "tournaments.db";

// The rows of a tournaments.db, read.
struct LegacyTournaments {
  // Tournament id -> its events, in revision order.
  std::map<std::string, std::vector<v1::TournamentEvent>> streams;
  uint64_t rows = 0;
  // The SHA-256 (lowercase hex) of the canonical dump: one line per row,
  // in (tournament_id, revision) byte order, "ID REVISION HEX\n", HEX the
  // stored event blob in upper-case hex (SQLite's hex()), so that
  //   sqlite3 tournaments.db "SELECT tournament_id||' '||revision||' '||hex(event)
  //     FROM tournament_events ORDER BY tournament_id, revision" | sha256sum
  // gives it too.
  std::string dump_sha256;
};

// Reads `path` without writing it. DATA_LOSS naming the tournament when its
// revisions are not 1, 2, ... or an event does not parse.
absl::StatusOr<LegacyTournaments> ReadLegacyTournaments(const std::string& path);

// When `dir`/tournaments.db exists: moves each of its tournaments into the
// ledger, in id order, its events in revision order followed by a
// `migrated` event (TournamentMigrated: the dump's hash and row count),
// then makes the file read-only (its rows unchanged). A tournament whose
// stream holds the file's events then `migrated` (and perhaps later events)
// is passed over, so opening again moves nothing; one holding a prefix of
// them (a move cut off) is completed. Errors: ReadLegacyTournaments';
// FAILED_PRECONDITION naming the tournament when the ledger holds one of
// the same id with other events; the ledger's.
absl::Status MigrateLegacyTournaments(ledger::Ledger& ledger, const std::string& dir);

// What MigrateLegacyTournaments would refuse, without writing: OK when each
// of `legacy`'s tournaments is new to the ledger, moved already, or moved
// in part; FAILED_PRECONDITION naming the first the ledger holds with other
// events; the ledger's errors.
absl::Status CheckLegacyTournaments(ledger::Ledger& ledger, const LegacyTournaments& legacy);

}  // namespace arbiter::tournament

#endif  // ARBITER_ADJUDICATOR_SERVICE_TOURNAMENT_MIGRATION_H_
