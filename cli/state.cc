// `arbiter state merge --into DIR|URI FOLDER...`: the --state folders of a
// federation's servers of an earlier release (each with its own
// tournaments.db and tokens.db) into the one store every server now shares
// (adjudicator/service/state_merge.h). A tournament or token id in two
// folders, or one the store holds otherwise, is refused by name and nothing
// is written. Run it with no server writing the store: for a data
// directory the ledger's lock says so; for PostgreSQL the folders' signing
// key (ledger.key, the same in every server's --state) is the first
// folder's.
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "adjudicator/judge/adjudicator_judge.h"
#include "adjudicator/service/state_merge.h"
#include "cli/commands.h"
#include "cli/complaint.h"
#include "cli/exit_codes.h"
#include "ledger/ledger.h"
#include "ledger/store.h"

namespace arbiter::cli {
namespace {

constexpr FlagSpec kMergeFlags[] = {
    {"into", "DIR|URI",
     "the store: a data directory no server has open, or the PostgreSQL database "
     "postgresql://USER@HOST:PORT/DB",
     false, true},
};
constexpr CommandSpec kMerge = {
    .name = "state merge",
    .positionals = "FOLDER...",
    .summary = "merge the tournaments.db and tokens.db of several --state folders into one store",
    .min_positionals = 1,
    .max_positionals = kAnyNumber,
    .flags = kMergeFlags,
    .notes =
        "Each folder's tournaments move into the ledger as a server's upgrade moves one\n"
        "folder's (id order, revision order, then a `migrated` event with the hash of\n"
        "the old rows), its tokens into the store's table; each file is then left\n"
        "read-only beside. A tournament or token id found in two folders, or held by\n"
        "the store with other content, is refused, naming the id and where it is, and\n"
        "nothing is written. Rerun after a crash: what moved is not moved twice.\n",
};

int MergeFailed(const absl::Status& s) {
  return Complain("state merge",
                  absl::StrCat(absl::StatusCodeToString(s.code()), ": ", s.message()),
                  ExitCodeOf(s));
}

int Merge(const Args& args) {
  const std::string into = *args.Value("into");
  const std::vector<std::string>& folders = args.positionals();
  AdjudicatorJudge judge;
  ledger::LedgerOptions lo;
  lo.dir = into;
  if (ledger::IsSharedStore(into)) lo.key_dir = folders.front();
  lo.judge = &judge;
  absl::StatusOr<std::unique_ptr<ledger::Ledger>> ledger = ledger::Ledger::Open(lo);
  if (!ledger.ok()) return MergeFailed(ledger.status());
  absl::StatusOr<std::unique_ptr<ledger::Store>> store = ledger::OpenStore(into);
  if (!store.ok()) return MergeFailed(store.status());
  absl::StatusOr<std::unique_ptr<ledger::ServerTables>> tables = (*store)->OpenServerTables(false);
  if (!tables.ok()) return MergeFailed(tables.status());
  absl::StatusOr<tournament::MergeTally> merged =
      tournament::MergeStateFolders(**ledger, **tables, folders);
  if (!merged.ok()) return MergeFailed(merged.status());
  std::printf("merged %zu folder(s): %zu tournament(s), %zu token(s)\n", folders.size(),
              merged->tournaments, merged->tokens);
  return kExitOk;
}

constexpr Subcommand kStateSubcommands[] = {{&kMerge, Merge}};
constexpr CommandGroup kState = {
    .name = "state",
    .summary = "a server's own state of an earlier release: merge --state folders into the store",
    .subcommands = kStateSubcommands,
};

}  // namespace

int RunState(int argc, char** argv) { return RunGroup(kState, argc, argv); }

}  // namespace arbiter::cli
