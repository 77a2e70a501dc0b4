// A self-signed certificate for the tests that serve TLS (the console's
// HTTPS, gRPC over TLS): for 127.0.0.1 (its name and subjectAltName), valid
// an hour, its own CA.
#ifndef ARBITER_TESTS_SUPPORT_SELF_SIGNED_H_
#define ARBITER_TESTS_SUPPORT_SELF_SIGNED_H_

#include <string>

namespace arbiter::testing {

// Writes the certificate and its P-256 key as PEM files; false when one
// cannot be made or written.
bool WriteSelfSignedCertificate(const std::string& cert_path, const std::string& key_path);

}  // namespace arbiter::testing

#endif  // ARBITER_TESTS_SUPPORT_SELF_SIGNED_H_
