// Where the ledger is. `arbiter serve --db` names the data directory; the
// offline commands accept that directory as well as the database file
// inside it, so one path works everywhere.
#ifndef ARBITER_CLI_LEDGER_PATH_H_
#define ARBITER_CLI_LEDGER_PATH_H_

#include <cstdlib>
#include <filesystem>
#include <string>

#include "cli/flags.h"

namespace arbiter::cli {

// The data directory of `arbiter serve` and `arbiter token`: --db, else
// $ARBITER_DATA, else ./arbiter-data.
inline std::string DataDirectory(const Args& args) {
  const char* env = std::getenv("ARBITER_DATA");
  return args.ValueOr("db", env != nullptr && *env != '\0' ? env : "arbiter-data");
}

// The database file of a --db PATH that names it or its data directory.
inline std::string LedgerDatabase(const std::string& path) {
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) {
    return (std::filesystem::path(path) / "ledger.db").string();
  }
  return path;
}

}  // namespace arbiter::cli

#endif  // ARBITER_CLI_LEDGER_PATH_H_
