// How the client commands reach a server that wants credentials (see
// .github/SECURITY.md):
//
//   $ARBITER_TOKEN    a bearer token (`arbiter token create`), sent as
//                     "authorization: Bearer <token>" on every call
//   $ARBITER_TLS_CA   PEM roots to verify the server's certificate: TLS
//   $ARBITER_TLS_CERT, $ARBITER_TLS_KEY  a client certificate (mutual TLS)
//
// With none set, a plaintext channel, as the zero-config local server wants.
#ifndef ARBITER_CLI_CLIENT_AUTH_H_
#define ARBITER_CLI_CLIENT_AUTH_H_

#include <memory>
#include <string>

#include "grpcpp/channel.h"

namespace arbiter::cli {

// Exits with status 2 and a message if a TLS file named in the environment
// cannot be read. `token_variable`: the environment variable holding the
// bearer token (`arbiter sync` talks to two servers, each with its own).
std::shared_ptr<grpc::Channel> OpenAuthChannel(const std::string& server,
                                               const char* token_variable = "ARBITER_TOKEN");

}  // namespace arbiter::cli

#endif  // ARBITER_CLI_CLIENT_AUTH_H_
