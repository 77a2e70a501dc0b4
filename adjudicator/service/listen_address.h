// Why a listener could not be bound. The gRPC server and the web console
// bind without SO_REUSEPORT (gRPC's and cpp-httplib's default), so a second
// server is refused a port another process listens on instead of sharing
// its calls; this names that case for the operator.
#ifndef ARBITER_ADJUDICATOR_SERVICE_LISTEN_ADDRESS_H_
#define ARBITER_ADJUDICATOR_SERVICE_LISTEN_ADDRESS_H_

#include <string>

#include "absl/status/status.h"

namespace arbiter::service {

// OK when `listen` (HOST:PORT, `flag` naming its option) can be bound now,
// probed with a socket of its own, closed again; else UNAVAILABLE: "address
// in use: HOST:PORT ..." when another socket listens there, else what the
// bind says. (Asked before gRPC binds, whose own log would otherwise print
// its multi-line error first.)
absl::Status CheckBindable(const std::string& flag, const std::string& listen);

// UNAVAILABLE, saying why `listen` could not be bound: CheckBindable's
// error, or a plain "cannot listen on" when the probe binds after all.
absl::Status CannotListen(const std::string& flag, const std::string& listen);

}  // namespace arbiter::service

#endif  // ARBITER_ADJUDICATOR_SERVICE_LISTEN_ADDRESS_H_
