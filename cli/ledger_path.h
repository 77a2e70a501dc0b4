// Where the ledger database of a `--db` argument is. `arbiter serve --db`
// names the data directory; the offline commands accept that directory as
// well as the database file inside it, so one path works everywhere.
#ifndef ARBITER_CLI_LEDGER_PATH_H_
#define ARBITER_CLI_LEDGER_PATH_H_

#include <filesystem>
#include <string>

namespace arbiter::cli {

inline std::string LedgerDatabase(const std::string& path) {
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) {
    return (std::filesystem::path(path) / "ledger.db").string();
  }
  return path;
}

}  // namespace arbiter::cli

#endif  // ARBITER_CLI_LEDGER_PATH_H_
