// The server's transport credentials: plaintext by default (loopback), TLS
// from PEM files, and optionally mutual TLS (clients must present a
// certificate signed by the given CA). Tokens still decide the role: mutual
// TLS only narrows who can connect at all.
#ifndef ARBITER_ADJUDICATOR_SERVICE_AUTH_TLS_H_
#define ARBITER_ADJUDICATOR_SERVICE_AUTH_TLS_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "grpcpp/security/server_credentials.h"

namespace arbiter::service {

struct TlsFiles {
  std::string cert_chain;   // PEM; empty: no TLS
  std::string private_key;  // PEM, the cert's key
  std::string client_ca;    // PEM; set: mutual TLS, client certificates required
};

// INVALID_ARGUMENT when a key or CA is given without a certificate, or a
// file cannot be read.
absl::StatusOr<std::shared_ptr<grpc::ServerCredentials>> ServerCredentialsFor(const TlsFiles& tls);

// Whether `listen` ("host:port") is a loopback address, where the server
// may run without tokens.
bool IsLoopback(const std::string& listen);

}  // namespace arbiter::service

#endif  // ARBITER_ADJUDICATOR_SERVICE_AUTH_TLS_H_
