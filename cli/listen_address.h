// The form of an address a server listens on (`serve --listen`, `--http`),
// checked before anything is opened, so that a mistyped one is named as
// such rather than failing later for some other reason.
#ifndef ARBITER_CLI_LISTEN_ADDRESS_H_
#define ARBITER_CLI_LISTEN_ADDRESS_H_

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace arbiter::cli {

// OK for HOST:PORT, where HOST is a name or an IPv4 address or an IPv6 one
// in brackets ([::1]) and PORT a number from 0 to 65535 (0: any free port).
// INVALID_ARGUMENT naming `flag`, the value and the forms it may take.
absl::Status CheckListenAddress(absl::string_view flag, absl::string_view address);

}  // namespace arbiter::cli

#endif  // ARBITER_CLI_LISTEN_ADDRESS_H_
