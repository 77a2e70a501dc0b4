// Issue 33's receipts and witnesses on the command line (ledger/receipt.h,
// ledger/witness_policy.h):
//
//   arbiter export GAME --receipt N --db PATH [--out FILE]
//       the C2SP tlog-proof of ruling N's event (N: the ruling's number, as
//       on its slip and in /games/GAME/rulings/N), offline;
//   arbiter verify --receipt FILE --key VKEY [--witnesses K --witness VKEY...]
//       checks one with no database and no server;
//   arbiter verify --db PATH --witnesses K --witness VKEY...
//       after the audit: the latest checkpoint K of those witnesses cosigned.
#ifndef ARBITER_CLI_RECEIPT_H_
#define ARBITER_CLI_RECEIPT_H_

#include <string>

#include "cli/flags.h"
#include "ledger/store.h"

namespace arbiter::cli {

// `export GAME --receipt N`: exit 0 once written; 2 for bad input (no such
// game or ruling, no checkpoint with a note covering it yet); 3 when the
// ledger cannot be read.
int RunReceiptExport(const CommandSpec& spec, const Args& args);

// `verify --receipt FILE`: exit 0 when it verifies, 1 when it does not
// (the reason printed), 2 for bad input.
int RunReceiptVerify(const CommandSpec& spec, const Args& args);

// The witness quorum of `verify --db`: exit 0 and a line when the latest
// checkpoint so cosigned exists, 1 when none does, 2 for bad flags.
int VerifyWitnessed(const CommandSpec& spec, const Args& args, ledger::Store& store);

}  // namespace arbiter::cli

#endif  // ARBITER_CLI_RECEIPT_H_
