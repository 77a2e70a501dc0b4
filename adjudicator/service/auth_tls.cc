#include "adjudicator/service/auth_tls.h"

#include <fstream>
#include <iterator>

#include "absl/strings/match.h"
#include "grpcpp/security/server_credentials.h"

namespace arbiter::service {
namespace {

absl::StatusOr<std::string> Slurp(const std::string& path, const char* what) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::InvalidArgumentError(std::string("cannot read the ") + what + " " + path);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (text.find("-----BEGIN ") == std::string::npos) {
    return absl::InvalidArgumentError(std::string("the ") + what + " " + path + " is not PEM");
  }
  return text;
}

}  // namespace

absl::StatusOr<std::shared_ptr<grpc::ServerCredentials>> ServerCredentialsFor(const TlsFiles& tls) {
  if (tls.cert_chain.empty()) {
    if (!tls.private_key.empty() || !tls.client_ca.empty()) {
      return absl::InvalidArgumentError("a TLS key or client CA needs a certificate (--tls-cert)");
    }
    return grpc::InsecureServerCredentials();
  }
  if (tls.private_key.empty()) return absl::InvalidArgumentError("--tls-cert needs --tls-key");
  absl::StatusOr<std::string> cert = Slurp(tls.cert_chain, "certificate");
  if (!cert.ok()) return cert.status();
  absl::StatusOr<std::string> key = Slurp(tls.private_key, "private key");
  if (!key.ok()) return key.status();
  grpc::SslServerCredentialsOptions options;
  options.pem_key_cert_pairs.push_back({*key, *cert});
  if (!tls.client_ca.empty()) {
    absl::StatusOr<std::string> ca = Slurp(tls.client_ca, "client CA");
    if (!ca.ok()) return ca.status();
    options.pem_root_certs = *ca;
    options.client_certificate_request = GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY;
  }
  return grpc::SslServerCredentials(options);
}

bool IsLoopback(const std::string& listen) {
  const size_t colon = listen.rfind(':');
  const std::string host = colon == std::string::npos ? listen : listen.substr(0, colon);
  return host == "localhost" || host.starts_with("127.") || host == "[::1]" ||
         host.starts_with("unix:");
}

}  // namespace arbiter::service
