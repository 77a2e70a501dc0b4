// The console's TLS context, from the same PEM files as the gRPC service's
// (auth_tls.h, `arbiter serve --tls-cert --tls-key [--tls-client-ca]`), so
// one certificate covers both and mutual TLS narrows the console's clients
// as it narrows gRPC's.
#ifndef ARBITER_ADJUDICATOR_SERVICE_CONSOLE_HTTP_TLS_H_
#define ARBITER_ADJUDICATOR_SERVICE_CONSOLE_HTTP_TLS_H_

#include <openssl/ssl.h>

#include <memory>

#include "absl/status/statusor.h"
#include "adjudicator/service/auth_tls.h"

namespace arbiter::service::console {

using TlsContext = std::shared_ptr<SSL_CTX>;

// A server context (TLS 1.2 or later) for `files`; null when `files` has no
// certificate (plaintext). INVALID_ARGUMENT when a file cannot be read or
// the key does not fit the certificate, naming the file.
absl::StatusOr<TlsContext> MakeTlsContext(const TlsFiles& files);

}  // namespace arbiter::service::console

#endif  // ARBITER_ADJUDICATOR_SERVICE_CONSOLE_HTTP_TLS_H_
