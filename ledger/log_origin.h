// The log's origin (C2SP tlog-checkpoint): the first line of every
// checkpoint note, the name of the key that signs them, and so part of the
// key id a verifier key names. It must never change once notes carry it: a
// log under two origins is two logs to every verifier and witness. It is
// chosen once (`serve --log-origin NAME`, else DefaultLogOrigin) and kept in
// `ledger.origin` beside the signing key.
#ifndef ARBITER_LEDGER_LOG_ORIGIN_H_
#define ARBITER_LEDGER_LOG_ORIGIN_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace arbiter::ledger {

// A name for the log at `place` when none is given: for a data directory,
// this host's name and the directory's absolute path ("venue-pc/var/lib/
// arbiter"); for a PostgreSQL URI, its host, port and database (no user,
// password or parameters), the same on every server of the database. Any
// character a key name may not hold (a space, '+') becomes '_'.
std::string DefaultLogOrigin(absl::string_view place);

// The origin kept in `dir`/ledger.origin; on first use, `requested` (or
// `fallback` when `requested` is empty) is written there. Errors:
// INVALID_ARGUMENT when `requested` is not a valid key name (note_key.h);
// FAILED_PRECONDITION when `requested` differs from the kept origin (the
// message names both); UNAVAILABLE when the file cannot be read or written.
absl::StatusOr<std::string> LoadLogOrigin(const std::string& dir, absl::string_view requested,
                                          absl::string_view fallback);

}  // namespace arbiter::ledger

#endif  // ARBITER_LEDGER_LOG_ORIGIN_H_
