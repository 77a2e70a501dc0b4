// `arbiter state merge`: the --state folders of a federation's servers of an
// earlier release, each with its own tournaments.db and tokens.db, into the
// one store every server now shares (issue 44.7; proto/DOMAIN.md,
// "Tournaments in the ledger"). A tournament id or a token id in two
// folders is refused, naming both folders and the id, as is one the store
// holds otherwise; nothing is written then. Otherwise the tokens of every
// folder go into the store in one transaction, then each folder's
// tournaments as one folder's upgrade moves them (MigrateLegacyTournaments:
// id order, revision order, a `migrated` event), folder after folder, each
// file left read-only beside. A merge cut off by a crash is finished by
// running it again: what moved is recognised and not moved twice.
#ifndef ARBITER_ADJUDICATOR_SERVICE_STATE_MERGE_H_
#define ARBITER_ADJUDICATOR_SERVICE_STATE_MERGE_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "ledger/ledger.h"
#include "ledger/server_tables.h"

namespace arbiter::tournament {

struct MergeTally {
  size_t tournaments = 0;  // moved by this merge or found moved
  size_t tokens = 0;       // rows read from the folders' tokens.db files
};

// Merges `folders` into `ledger` (tournaments) and `tables` (tokens) of one
// store. Errors: FAILED_PRECONDITION for a clashing id (the message names
// it and both places) or a tokens.db of a newer schema; DATA_LOSS for an
// unreadable tournaments.db (ReadLegacyTournaments); the store's.
absl::StatusOr<MergeTally> MergeStateFolders(ledger::Ledger& ledger, ledger::ServerTables& tables,
                                             const std::vector<std::string>& folders);

}  // namespace arbiter::tournament

#endif  // ARBITER_ADJUDICATOR_SERVICE_STATE_MERGE_H_
