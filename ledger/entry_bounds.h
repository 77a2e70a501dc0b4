// The bytes one append may record: an event with the rulings its judge gave
// it, and a whole batch with its rulings. The ledger refuses more
// (INVALID_ARGUMENT, nothing written: ledger.h, Append), so that every answer
// carrying entries stays under gRPC's 4 MiB message limit whatever the judge
// decides: an append's acknowledgement (at most kMaxAppendBytes of entries,
// plus their numbers), a page of entries (which always holds at least one:
// at most a page's bytes plus kMaxEntryBytes), a watch message (one entry).
// The clients' own bounds (adjudicator/service/field_bounds.h: 16 KiB an
// event, 1 MiB a batch) leave the judge the rest: a ruling repeats its
// clause's texts and the arbiter's note, and a correction supersedes every
// ruling issued from the event it voids, all in that one event's rulings.
#ifndef ARBITER_LEDGER_ENTRY_BOUNDS_H_
#define ARBITER_LEDGER_ENTRY_BOUNDS_H_

#include <cstddef>

namespace arbiter::ledger {

inline constexpr size_t kMaxEntryBytes = 1 << 20;   // an event and its rulings
inline constexpr size_t kMaxAppendBytes = 3 << 20;  // a batch and its rulings

}  // namespace arbiter::ledger

#endif  // ARBITER_LEDGER_ENTRY_BOUNDS_H_
