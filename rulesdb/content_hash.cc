#include "rulesdb/content_hash.h"

#include <openssl/evp.h>

#include <memory>

#include "absl/strings/escaping.h"
#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"

namespace arbiter {

absl::StatusOr<std::string> Sha256Hex(std::string_view bytes) {
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(),
                                                              &EVP_MD_CTX_free);
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  // absl::string_view is not std::string_view in this Abseil build.
  if (ctx == nullptr || EVP_DigestInit_ex(ctx.get(), EVP_sha256(), nullptr) != 1 ||
      EVP_DigestUpdate(ctx.get(), bytes.data(), bytes.size()) != 1 ||
      EVP_DigestFinal_ex(ctx.get(), digest, &length) != 1) {
    return absl::InternalError("SHA-256 via OpenSSL EVP failed");
  }
  return absl::BytesToHexString(
      absl::string_view(reinterpret_cast<const char*>(digest), length));
}

absl::StatusOr<std::string> CanonicalBytes(const google::protobuf::Message& message) {
  std::unique_ptr<google::protobuf::Message> copy(message.New());
  copy->CopyFrom(message);
  copy->DiscardUnknownFields();  // unknown fields would make the bytes ambiguous
  std::string bytes;
  {
    google::protobuf::io::StringOutputStream stream(&bytes);
    google::protobuf::io::CodedOutputStream out(&stream);
    out.SetSerializationDeterministic(true);
    if (!copy->SerializeToCodedStream(&out)) {
      return absl::InternalError("cannot serialize " + message.GetTypeName());
    }
  }
  return bytes;
}

absl::StatusOr<std::string> ContentHash(const google::protobuf::Message& message) {
  absl::StatusOr<std::string> bytes = CanonicalBytes(message);
  if (!bytes.ok()) return bytes.status();
  return Sha256Hex(*bytes);
}

}  // namespace arbiter
