#include "tests/support/self_signed.h"

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509v3.h>

#include <cstdio>
#include <utility>

namespace arbiter::testing {

bool WriteSelfSignedCertificate(const std::string& cert_path, const std::string& key_path) {
  EVP_PKEY* key = EVP_EC_gen("P-256");
  if (key == nullptr) return false;
  X509* x = X509_new();
  X509_set_version(x, 2);
  ASN1_INTEGER_set(X509_get_serialNumber(x), 1);
  X509_gmtime_adj(X509_getm_notBefore(x), -60);
  X509_gmtime_adj(X509_getm_notAfter(x), 3600);
  X509_set_pubkey(x, key);
  X509_NAME* name = X509_get_subject_name(x);
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
                             reinterpret_cast<const unsigned char*>("127.0.0.1"), -1, -1, 0);
  X509_set_issuer_name(x, name);
  X509V3_CTX ctx;
  X509V3_set_ctx_nodb(&ctx);
  X509V3_set_ctx(&ctx, x, x, nullptr, nullptr, 0);
  bool ok = true;
  for (auto [nid, value] : {std::pair{NID_subject_alt_name, "IP:127.0.0.1"},
                            std::pair{NID_basic_constraints, "critical,CA:TRUE"}}) {
    X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, &ctx, nid, value);
    ok = ok && ext != nullptr && X509_add_ext(x, ext, -1) == 1;
    X509_EXTENSION_free(ext);
  }
  ok = ok && X509_sign(x, key, EVP_sha256()) > 0;
  FILE* c = ok ? std::fopen(cert_path.c_str(), "w") : nullptr;
  FILE* k = ok ? std::fopen(key_path.c_str(), "w") : nullptr;
  ok = ok && c != nullptr && k != nullptr && PEM_write_X509(c, x) == 1 &&
       PEM_write_PrivateKey(k, key, nullptr, nullptr, 0, nullptr, nullptr) == 1;
  if (c != nullptr) ok = std::fclose(c) == 0 && ok;
  if (k != nullptr) ok = std::fclose(k) == 0 && ok;
  X509_free(x);
  EVP_PKEY_free(key);
  return ok;
}

}  // namespace arbiter::testing
