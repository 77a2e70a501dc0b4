// `arbiter verify --export FILE`: whether a tournament's exported results
// file (.h9, AGA, OpenGotha XML, CSV or JSON, as `tournament export` writes
// it) is what the signed log gives (DOMAIN.md, "Exports name the record
// they came from"):
//
//   arbiter verify --export FILE --db PATH|postgresql://... [--pubkey FILE]
//       offline: the checkpoint the file names must be one the log has,
//       signed by the trusted key (--pubkey, else ledger.pub beside the
//       database, else the key the database records), under the file's
//       origin, with the file's root, which the log's leaves give; the
//       export is then derived again from the log at that size (every
//       event it reads checked against the signed tree) and compared;
//   arbiter verify --export FILE [--server ADDR]
//       the server derives it at that size (ExportTournament at_tree_size)
//       and the file is compared with what it answers: the server's word,
//       as `verify GAME` through a server is.
//
// Exit 0 and "matches" when equal; 1 when not (the first line that differs,
// its number and both texts), or when the file names another log, a size
// the log has no checkpoint of, or another root; 2 when the file names no
// checkpoint or cannot be read; 3 when the ledger or server cannot be read.
#ifndef ARBITER_CLI_VERIFY_EXPORT_H_
#define ARBITER_CLI_VERIFY_EXPORT_H_

#include "cli/flags.h"

namespace arbiter::cli {

int RunExportVerify(const CommandSpec& spec, const Args& args);

}  // namespace arbiter::cli

#endif  // ARBITER_CLI_VERIFY_EXPORT_H_
