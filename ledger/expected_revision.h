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
  static ExpectedRevision Any() { return ExpectedRevision(kAny); }
  // The game must have no events yet.
  static ExpectedRevision NoStream() { return ExpectedRevision(0); }
  // The game's last event must be at `revision` (0 is the same as NoStream).
  static ExpectedRevision Exactly(uint64_t revision) { return ExpectedRevision(revision); }

  bool any() const { return value_ == kAny; }
  uint64_t revision() const { return value_; }

  // OK, or ABORTED naming `game_id`'s current revision.
  absl::Status Check(const std::string& game_id, uint64_t current) const;

 private:
  static constexpr uint64_t kAny = ~uint64_t{0};
  explicit ExpectedRevision(uint64_t v) : value_(v) {}
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
