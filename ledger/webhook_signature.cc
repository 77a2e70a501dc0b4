#include "ledger/webhook_signature.h"

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <fstream>

#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

namespace arbiter::ledger {
namespace {

// SubjectPublicKeyInfo of an Ed25519 key, before its 32 raw bytes (RFC 8410).
constexpr char kWebhookSpkiPrefix[] = "\x30\x2a\x30\x05\x06\x03\x2b\x65\x70\x03\x21\x00";
constexpr size_t kWebhookSpkiPrefixSize = 12;

std::string Content(absl::string_view id, absl::string_view timestamp, absl::string_view body) {
  return absl::StrCat(id, ".", timestamp, ".", body);
}

}  // namespace

std::string WebhookPublicKeyPath(const std::string& path) {
  if (absl::EndsWith(path, ".key")) return path.substr(0, path.size() - 4) + ".pub";
  return path + ".pub";
}

std::string WebhookPublicKey(const Signer& key) {
  const std::string& der = key.public_key_der();
  return absl::StrCat("whpk_", absl::Base64Escape(der.substr(der.size() - 32)));
}

absl::StatusOr<Signer> LoadWebhookKey(const std::string& path) {
  absl::StatusOr<Signer> key = Signer::LoadOrCreate(path);
  if (!key.ok()) return key.status();
  const std::string pub = WebhookPublicKeyPath(path);
  const std::string line = WebhookPublicKey(*key) + "\n";
  std::ifstream in(pub, std::ios::binary);
  std::string now((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (now == line) return key;
  std::ofstream out(pub + ".tmp", std::ios::binary | std::ios::trunc);
  out << line;
  out.close();
  if (!out || std::rename((pub + ".tmp").c_str(), pub.c_str()) != 0) {
    return absl::UnavailableError(absl::StrCat("cannot write ", pub));
  }
  return key;
}

absl::StatusOr<std::string> WebhookSecretBytes(absl::string_view whsec) {
  absl::string_view b64 = whsec;
  std::string bytes;
  if (!absl::ConsumePrefix(&b64, "whsec_") || !absl::Base64Unescape(b64, &bytes) ||
      bytes.size() < 24) {
    return absl::InvalidArgumentError(
        "a webhook secret is whsec_ and the base64 of 24 to 64 random bytes");
  }
  if (bytes.size() > 64) return absl::InvalidArgumentError("a webhook secret is at most 64 bytes");
  return bytes;
}

absl::StatusOr<std::string> SignWebhook(const Signer& key, absl::string_view whsec,
                                        absl::string_view id, absl::string_view timestamp,
                                        absl::string_view body) {
  const std::string content = Content(id, timestamp, body);
  absl::StatusOr<std::string> ed = key.Sign(content);
  if (!ed.ok()) return ed.status();
  std::string out = absl::StrCat("v1a,", absl::Base64Escape(*ed));
  if (whsec.empty()) return out;
  absl::StatusOr<std::string> secret = WebhookSecretBytes(whsec);
  if (!secret.ok()) return secret.status();
  unsigned char mac[EVP_MAX_MD_SIZE];
  unsigned int mac_size = 0;
  if (HMAC(EVP_sha256(), secret->data(), static_cast<int>(secret->size()),
           reinterpret_cast<const unsigned char*>(content.data()), content.size(), mac,
           &mac_size) == nullptr) {
    return absl::InternalError("HMAC-SHA256 failed");
  }
  absl::StrAppend(&out, " v1,",
                  absl::Base64Escape(absl::string_view(reinterpret_cast<char*>(mac), mac_size)));
  return out;
}

absl::Status VerifyWebhookSignature(absl::string_view whpk, absl::string_view id,
                                    absl::string_view timestamp, absl::string_view body,
                                    absl::string_view signatures) {
  std::string raw;
  absl::string_view b64 = absl::StripAsciiWhitespace(whpk);
  if (!absl::ConsumePrefix(&b64, "whpk_") || !absl::Base64Unescape(b64, &raw) || raw.size() != 32) {
    return absl::InvalidArgumentError("a webhook public key is whpk_ and the base64 of 32 bytes");
  }
  const std::string der = std::string(kWebhookSpkiPrefix, kWebhookSpkiPrefixSize) + raw;
  const std::string content = Content(id, timestamp, body);
  for (absl::string_view sig : absl::StrSplit(signatures, ' ', absl::SkipEmpty())) {
    std::string bytes;
    if (!absl::ConsumePrefix(&sig, "v1a,") || !absl::Base64Unescape(sig, &bytes)) continue;
    if (VerifySignature(der, content, bytes).ok()) return absl::OkStatus();
  }
  return absl::DataLossError("no v1a signature of the webhook key over this id, time and body");
}

}  // namespace arbiter::ledger
