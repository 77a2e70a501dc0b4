// One `arbiter serve` per data folder: an exclusive advisory lock (flock) on
// DIR/serve.lock, released by the kernel when the process ends however it
// ends, and in the file the holder's pid and addresses, so a second server
// on the folder is refused with the name of the one holding it. (The SQLite
// ledger locks ledger.lock too; this lock covers the folder whatever the
// ledger, a PostgreSQL ledger's per-server state included.)
#ifndef ARBITER_ADJUDICATOR_SERVICE_FOLDER_LOCK_H_
#define ARBITER_ADJUDICATOR_SERVICE_FOLDER_LOCK_H_

#include <string>

#include "absl/status/statusor.h"

namespace arbiter::service {

class FolderLock {
 public:
  // Creates `dir` if absent and locks it, writing this process's pid.
  // FAILED_PRECONDITION when another process holds it (the message names
  // the folder, that process's pid and the addresses it serves on);
  // UNAVAILABLE when the lock file cannot be created or locked (the
  // message names the folder, and says so when it is write-protected).
  static absl::StatusOr<FolderLock> Acquire(const std::string& dir);

  FolderLock(FolderLock&& other) noexcept;
  FolderLock& operator=(FolderLock&&) = delete;
  ~FolderLock();  // unlocks (the file stays, for the next holder)

  // Writes the addresses now served (empty `console`: none) beside the pid,
  // for the message a second server gets. UNAVAILABLE on a write error.
  absl::Status Announce(const std::string& listen, const std::string& console);

 private:
  explicit FolderLock(int fd) : fd_(fd) {}
  int fd_ = -1;
};

}  // namespace arbiter::service

#endif  // ARBITER_ADJUDICATOR_SERVICE_FOLDER_LOCK_H_
