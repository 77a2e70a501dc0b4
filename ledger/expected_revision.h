// Optimistic concurrency for an append: what the writer believes the game's
// stream looks like. A mismatch is refused (ABORTED) naming the current
// revision, so the writer can re-read and retry.
#ifndef ARBITER_LEDGER_EXPECTED_REVISION_H_
#define ARBITER_LEDGER_EXPECTED_REVISION_H_

#include <cstdint>
#include <string>

#include "absl/status/status.h"

namespace arbiter::ledger {

class ExpectedRevision {
 public:
  // Append whatever the stream holds.
  static ExpectedRevision Any() { return ExpectedRevision(true, 0); }
  // The game must have no events yet.
  static ExpectedRevision NoStream() { return ExpectedRevision(false, 0); }
  // The game's last event must be at `revision` (0 is the same as NoStream).
  // Any number, the largest too: no revision stands for "any" (a client's
  // expected_revision of 2^64-1 once skipped the check).
  static ExpectedRevision Exactly(uint64_t revision) { return ExpectedRevision(false, revision); }

  bool any() const { return any_; }
  uint64_t revision() const { return value_; }

  // OK, or ABORTED naming `game_id`'s current revision.
  absl::Status Check(const std::string& game_id, uint64_t current) const;

 private:
  ExpectedRevision(bool any, uint64_t v) : any_(any), value_(v) {}
  bool any_;
  uint64_t value_;
};

// Another stream an append was derived from, at the revision it was read
// (0: no stream yet): a tournament's derived event (its standings) is
// appended only while every stream it was derived from still stands there.
struct StreamAt {
  std::string stream;
  uint64_t revision = 0;
};

}  // namespace arbiter::ledger

#endif  // ARBITER_LEDGER_EXPECTED_REVISION_H_
