// Where the ledger is. `arbiter serve --db` names the data directory; the
// offline commands accept that directory as well as the database file
// inside it, so one path works everywhere.
#ifndef ARBITER_CLI_LEDGER_PATH_H_
#define ARBITER_CLI_LEDGER_PATH_H_

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "cli/flags.h"
#include "ledger/log_reader.h"
#include "ledger/pg.h"
#include "ledger/pg_log_reader.h"

namespace arbiter::cli {

// The data directory of `arbiter serve` and `arbiter token`: --db, else
// $ARBITER_DATA, else ./arbiter-data.
inline std::string DataDirectory(const Args& args) {
  const char* env = std::getenv("ARBITER_DATA");
  return args.ValueOr("db", env != nullptr && *env != '\0' ? env : "arbiter-data");
}

// The database file of a --db PATH that names it or its data directory (a
// postgresql:// URI stays as it is).
inline std::string LedgerDatabase(const std::string& path) {
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) {
    return (std::filesystem::path(path) / "ledger.db").string();
  }
  return path;
}

// Reads of the ledger at `location` (LedgerDatabase's): NOT_FOUND when no
// database file is there; the store's own errors.
inline absl::StatusOr<std::unique_ptr<ledger::LogSource>> OpenLedgerReader(
    const std::string& location) {
  if (ledger::IsPostgresUri(location)) {
    absl::StatusOr<std::unique_ptr<ledger::PgLogReader>> r = ledger::PgLogReader::Open(location);
    if (!r.ok()) return r.status();
    return std::unique_ptr<ledger::LogSource>(*std::move(r));
  }
  if (!std::filesystem::exists(location)) {
    return absl::NotFoundError(absl::StrCat("no database at ", location));
  }
  absl::StatusOr<ledger::LogReader> r = ledger::LogReader::Open(location);
  if (!r.ok()) return r.status();
  return std::unique_ptr<ledger::LogSource>(std::make_unique<ledger::LogReader>(*std::move(r)));
}

}  // namespace arbiter::cli

#endif  // ARBITER_CLI_LEDGER_PATH_H_
