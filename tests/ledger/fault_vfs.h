// A SQLite VFS for the ledger's failure tests, wrapping the default one.
//
// Fault injection: make writes or syncs fail (SQLITE_FULL, SQLITE_IOERR_*)
// after a number of successful ones. Power loss, in the spirit of SQLite's
// own crash tests: while tracking, every write and truncate not yet made
// durable by an xSync of its file is journaled; PowerCut() stops all I/O
// from reaching the disk, and RestorePowerLoss() then undoes the unsynced
// writes, keeping a random subset of them (a disk may have written some),
// so the files hold what a machine that lost power could have left.
#ifndef ARBITER_TESTS_LEDGER_FAULT_VFS_H_
#define ARBITER_TESTS_LEDGER_FAULT_VFS_H_

#include <cstdint>

namespace arbiter::ledger::testing {

class FaultVfs {
 public:
  static constexpr const char* kName = "arbiter-fault";

  // Registers the VFS (once) and returns its controller.
  static FaultVfs& Get();

  // After `after` more successful calls, every xWrite (xSync) fails with
  // `rc` until Heal().
  void FailWrites(int after, int rc);
  void FailSyncs(int after, int rc);
  void Heal();

  // Starts journaling unsynced writes (from a clean state).
  void TrackUnsynced();
  // From now on nothing reaches the disk: writes, syncs, truncates and
  // deletes fail with an I/O error.
  void PowerCut();
  // Cuts the power at the n-th write from now (that write fails), so that
  // the writes of a commit in progress are left unsynced.
  void PowerCutAtWrite(int n);
  bool power_cut() const;
  // With every connection through this VFS closed: puts each file back to
  // its last synced state, re-applying each unsynced write with probability
  // `keep` (in order); then stops tracking. Returns the number of unsynced
  // writes that were dropped.
  int RestorePowerLoss(uint32_t seed, double keep);

  int64_t writes() const;
  int64_t syncs() const;
};

}  // namespace arbiter::ledger::testing

#endif  // ARBITER_TESTS_LEDGER_FAULT_VFS_H_
