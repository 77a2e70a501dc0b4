#include "adjudicator/service/console/http_tls.h"

#include <openssl/err.h>

#include <string>

#include "absl/strings/str_cat.h"

namespace arbiter::service::console {
namespace {

std::string OpenSslError() {
  const unsigned long e = ERR_get_error();
  if (e == 0) return "unknown error";
  char text[256];
  ERR_error_string_n(e, text, sizeof text);
  ERR_clear_error();
  return text;
}

}  // namespace

absl::StatusOr<TlsContext> MakeTlsContext(const TlsFiles& files) {
  if (files.cert_chain.empty()) {
    if (!files.private_key.empty() || !files.client_ca.empty()) {
      return absl::InvalidArgumentError("--tls-key and --tls-client-ca need --tls-cert");
    }
    return TlsContext();
  }
  TlsContext ctx(SSL_CTX_new(TLS_server_method()), SSL_CTX_free);
  if (ctx == nullptr) return absl::InternalError("cannot make a TLS context: " + OpenSslError());
  SSL_CTX_set_min_proto_version(ctx.get(), TLS1_2_VERSION);
  SSL_CTX_set_mode(ctx.get(), SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
  if (SSL_CTX_use_certificate_chain_file(ctx.get(), files.cert_chain.c_str()) != 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("--tls-cert ", files.cert_chain, ": ", OpenSslError()));
  }
  if (SSL_CTX_use_PrivateKey_file(ctx.get(), files.private_key.c_str(), SSL_FILETYPE_PEM) != 1 ||
      SSL_CTX_check_private_key(ctx.get()) != 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("--tls-key ", files.private_key, ": ", OpenSslError()));
  }
  if (!files.client_ca.empty()) {
    if (SSL_CTX_load_verify_locations(ctx.get(), files.client_ca.c_str(), nullptr) != 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("--tls-client-ca ", files.client_ca, ": ", OpenSslError()));
    }
    // The CA names go to the client, so a browser offers a fitting certificate.
    SSL_CTX_set_client_CA_list(ctx.get(), SSL_load_client_CA_file(files.client_ca.c_str()));
    SSL_CTX_set_verify(ctx.get(), SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT, nullptr);
  }
  return ctx;
}

}  // namespace arbiter::service::console
