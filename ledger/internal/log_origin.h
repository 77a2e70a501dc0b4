// The log's origin (C2SP tlog-checkpoint): the first line of every
// checkpoint note, the name of the key that signs them, and so part of the
// key id a verifier key names. It must never change once notes carry it: a
// log under two origins is two logs to every verifier and witness. It is
// chosen once (`serve --log-origin NAME`, else DefaultLogOrigin) by the
// first server to open the ledger and kept in its database (the meta row
// "log_origin"), so every server of one database signs under the same
// origin whatever it calls its host.
#ifndef ARBITER_LEDGER_INTERNAL_LOG_ORIGIN_H_
#define ARBITER_LEDGER_INTERNAL_LOG_ORIGIN_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace arbiter::ledger {

class ServerTables;  // server_tables.h

// A name for the log at `place` when none is given: for a data directory,
// this host's name and the directory's absolute path ("venue-pc/var/lib/
// arbiter"); for a PostgreSQL URI, its host, port and database (no user,
// password or parameters), the same on every server of the database. Any
// character a key name may not hold (a space, '+') becomes '_'.
std::string DefaultLogOrigin(absl::string_view place);

// The origin kept in `tables`' meta row; on first use, the one of a
// `key_dir`/ledger.origin file of an older release, else `requested`, else
// `fallback`, is kept there (and the file, once moved, removed). A server
// that asks for no origin gets the kept one, whatever its fallback.
// Errors: INVALID_ARGUMENT when `requested` is not a valid key name
// (note_key.h); FAILED_PRECONDITION when `requested`, or a ledger.origin
// file, differs from the kept origin (the message names both); UNAVAILABLE
// when the file or the database cannot be read or written.
absl::StatusOr<std::string> SettleLogOrigin(ServerTables& tables, const std::string& key_dir,
                                            absl::string_view requested,
                                            absl::string_view fallback);

}  // namespace arbiter::ledger

#endif  // ARBITER_LEDGER_INTERNAL_LOG_ORIGIN_H_
