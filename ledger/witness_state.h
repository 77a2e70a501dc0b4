// What a witness remembers of each log it cosigns (C2SP tlog-witness): the
// latest checkpoint it cosigned for the log's origin, its size and root, and
// the note it answered with (the log's signature and its own cosignature,
// what a monitor fetches). One file per origin, named by the origin's hex
// SHA-256 as tlog-witness's monitoring URL names it, replaced atomically and
// durably (written, fsync'd, renamed, the directory fsync'd) before Put
// returns, so a witness that answers has already recorded what it signed,
// and one restarted, crashed or not, never cosigns a rollback.
#ifndef ARBITER_LEDGER_WITNESS_STATE_H_
#define ARBITER_LEDGER_WITNESS_STATE_H_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "ledger/hash.h"

namespace arbiter::ledger {

struct WitnessedCheckpoint {
  uint64_t size = 0;
  Hash root{};
  std::string note;  // the checkpoint with the log's and the witness's signatures
};

class WitnessState {
 public:
  // Reads every record in `dir` (created if absent). UNAVAILABLE when it
  // cannot be made or read; DATA_LOSS naming the file when a record is not
  // one this class wrote.
  static absl::StatusOr<std::unique_ptr<WitnessState>> Open(const std::string& dir);

  // The latest checkpoint cosigned for `origin`; nullopt if none.
  std::optional<WitnessedCheckpoint> Get(absl::string_view origin) const;

  // Records `latest` as `origin`'s, durably (see above). UNAVAILABLE when a
  // write or sync fails (the previous record then stands, on disk and here).
  // The caller serializes the check of the old size and this Put (one
  // witness lock), as tlog-witness asks, so no request rolls another back.
  absl::Status Put(absl::string_view origin, WitnessedCheckpoint latest);

  // The file that holds `origin`'s record.
  std::string PathOf(absl::string_view origin) const;

 private:
  explicit WitnessState(std::string dir) : dir_(std::move(dir)) {}
  const std::string dir_;
  mutable absl::Mutex mu_;
  std::map<std::string, WitnessedCheckpoint, std::less<>> latest_ ABSL_GUARDED_BY(mu_);
};

}  // namespace arbiter::ledger

#endif  // ARBITER_LEDGER_WITNESS_STATE_H_
