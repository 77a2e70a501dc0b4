// When a shared ledger's unsigned tail must be signed (internal to the
// ledger). On PostgreSQL any server may commit, but one signs the tail: it
// learns of the others' commits only by reading the head, so it bounds when
// each event it had not seen was committed by when its previous read began
// (positions commit in order, under the sequencer's lease, so a read sees a
// prefix of the log).
#ifndef ARBITER_LEDGER_INTERNAL_UNSIGNED_TAIL_H_
#define ARBITER_LEDGER_INTERNAL_UNSIGNED_TAIL_H_

#include <cstdint>
#include <deque>
#include <utility>

#include "absl/time/time.h"

namespace arbiter::ledger {

class UnsignedTail {
 public:
  // Every event is to be covered by a checkpoint at most `sign_within`
  // after its commit (zero: no bound, nothing is ever due).
  explicit UnsignedTail(absl::Duration sign_within) : sign_within_(sign_within) {}

  // A read begun at `read_at` found `head` events, the last checkpoint
  // covering `signed_size`. The events no earlier read found were committed
  // after the previous read began; on the first read, they are taken as
  // committed at `read_at` (a tail found is signed within the bound from
  // then). True when the tail is due earlier than it was.
  bool Read(uint64_t head, uint64_t signed_size, absl::Time read_at);

  // A checkpoint covering `tree_size` events is committed.
  void Signed(uint64_t tree_size);

  // Signing failed: try again no sooner than `time`, not in a loop.
  void Postpone(absl::Time time) { not_before_ = time; }

  // Forgets what was read (this server no longer signs): nothing is due
  // until the next Read, which counts as a first one.
  void Reset();

  // When the oldest unsigned event must be signed; InfiniteFuture when all
  // are signed, or there is no bound.
  absl::Time Due() const;

 private:
  const absl::Duration sign_within_;
  bool read_ = false;     // a read since the last Reset
  absl::Time last_read_;  // when the last read began
  uint64_t seen_ = 0;     // the head it found
  uint64_t signed_ = 0;   // the largest checkpoint known
  absl::Time not_before_ = absl::InfinitePast();
  // Unsigned events by the read that first found them: the last position it
  // found, and the time they were committed after, oldest first.
  std::deque<std::pair<uint64_t, absl::Time>> found_;
};

}  // namespace arbiter::ledger

#endif  // ARBITER_LEDGER_INTERNAL_UNSIGNED_TAIL_H_
