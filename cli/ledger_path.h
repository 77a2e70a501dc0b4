// Where the ledger is. `arbiter serve --db` names the data directory; the
// offline commands accept that directory as well as the database file
// inside it, or a postgresql:// URI: ledger::OpenStore tells them apart.
#ifndef ARBITER_CLI_LEDGER_PATH_H_
#define ARBITER_CLI_LEDGER_PATH_H_

#include <cstdlib>
#include <string>

#include "cli/flags.h"

namespace arbiter::cli {

// The data directory of `arbiter serve` and `arbiter token`: --db, else
// $ARBITER_DATA, else ./arbiter-data.
inline std::string DataDirectory(const Args& args) {
  const char* env = std::getenv("ARBITER_DATA");
  return args.ValueOr("db", env != nullptr && *env != '\0' ? env : "arbiter-data");
}

}  // namespace arbiter::cli

#endif  // ARBITER_CLI_LEDGER_PATH_H_
