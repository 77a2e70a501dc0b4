#include "ledger/signer.h"

#include <fcntl.h>
#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "ledger/internal/log_origin.h"
#include "ledger/note_key.h"

namespace arbiter::ledger {

struct Signer::Key {
  EVP_PKEY* pkey = nullptr;
  ~Key() { EVP_PKEY_free(pkey); }
};

namespace {

absl::StatusOr<std::string> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat("cannot read ", path));
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

absl::StatusOr<std::string> PublicDer(EVP_PKEY* pkey) {
  unsigned char* der = nullptr;
  int len = i2d_PUBKEY(pkey, &der);
  if (len <= 0) return absl::InternalError("cannot encode the public key");
  std::string out(reinterpret_cast<char*>(der), len);
  OPENSSL_free(der);
  return out;
}

// Writes a fresh key to a temporary file, syncs it, then links it into
// place; link() fails if another process won the race, and we load theirs.
absl::Status CreateKey(const std::string& path) {
  EVP_PKEY* pkey = EVP_PKEY_Q_keygen(nullptr, nullptr, "ED25519");
  if (pkey == nullptr) return absl::InternalError("Ed25519 key generation failed");
  BIO* bio = BIO_new(BIO_s_mem());
  bool ok = bio != nullptr &&
            PEM_write_bio_PrivateKey(bio, pkey, nullptr, nullptr, 0, nullptr, nullptr) == 1;
  EVP_PKEY_free(pkey);
  char* data = nullptr;
  long len = ok ? BIO_get_mem_data(bio, &data) : 0;
  std::string pem(data == nullptr ? "" : std::string(data, len));
  BIO_free(bio);
  if (!ok || pem.empty()) return absl::InternalError("cannot encode the new key");

  std::string tmp = absl::StrCat(path, ".tmp.", getpid());
  int fd = open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0)
    return absl::UnavailableError(absl::StrCat("cannot create ", tmp, ": ", strerror(errno)));
  bool written =
      write(fd, pem.data(), pem.size()) == static_cast<ssize_t>(pem.size()) && fsync(fd) == 0;
  close(fd);
  int linked = written ? link(tmp.c_str(), path.c_str()) : -1;
  int link_errno = errno;
  unlink(tmp.c_str());
  if (!written) return absl::UnavailableError(absl::StrCat("cannot write ", tmp));
  if (linked != 0 && link_errno != EEXIST) {
    return absl::UnavailableError(absl::StrCat("cannot create ", path, ": ", strerror(link_errno)));
  }
  return absl::OkStatus();
}

}  // namespace

Signer::Signer(std::unique_ptr<Key> key, std::string public_der, std::string origin)
    : key_(std::move(key)), public_der_(std::move(public_der)), origin_(std::move(origin)) {}
Signer::Signer(Signer&&) noexcept = default;
Signer& Signer::operator=(Signer&&) noexcept = default;
Signer::~Signer() = default;

absl::StatusOr<Signer> Signer::LoadOrCreate(const std::string& path, std::string origin) {
  if (access(path.c_str(), F_OK) != 0) {
    if (absl::Status s = CreateKey(path); !s.ok()) return s;
  }
  absl::StatusOr<std::string> pem = ReadFile(path);
  if (!pem.ok()) return pem.status();
  BIO* bio = BIO_new_mem_buf(pem->data(), static_cast<int>(pem->size()));
  auto key = std::make_unique<Key>();
  key->pkey = PEM_read_bio_PrivateKey(bio, nullptr, nullptr, nullptr);
  BIO_free(bio);
  if (key->pkey == nullptr || EVP_PKEY_get_id(key->pkey) != EVP_PKEY_ED25519) {
    return absl::FailedPreconditionError(absl::StrCat(path, " is not an Ed25519 private key"));
  }
  absl::StatusOr<std::string> der = PublicDer(key->pkey);
  if (!der.ok()) return der.status();
  return Signer(std::move(key), *std::move(der), std::move(origin));
}

absl::StatusOr<Signer> Signer::FromEd25519Seed(absl::string_view seed, std::string origin) {
  if (seed.size() != 32) return absl::InvalidArgumentError("an Ed25519 seed is 32 bytes");
  auto key = std::make_unique<Key>();
  key->pkey = EVP_PKEY_new_raw_private_key(
      EVP_PKEY_ED25519, nullptr, reinterpret_cast<const unsigned char*>(seed.data()), seed.size());
  if (key->pkey == nullptr) return absl::InternalError("cannot load the Ed25519 seed");
  absl::StatusOr<std::string> der = PublicDer(key->pkey);
  if (!der.ok()) return der.status();
  return Signer(std::move(key), *std::move(der), std::move(origin));
}

std::string Signer::VerifierKey() const {
  if (origin_.empty()) return "";
  absl::StatusOr<std::string> raw = RawEd25519PublicKey(public_der_);
  absl::StatusOr<std::string> vkey =
      raw.ok() ? FormatVerifierKey(origin_, *raw) : absl::StatusOr<std::string>(raw.status());
  return vkey.ok() ? *vkey : "";
}

absl::StatusOr<std::string> Signer::Sign(absl::string_view message) const {
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  std::string sig(64, '\0');
  size_t len = sig.size();
  bool ok =
      ctx != nullptr && EVP_DigestSignInit(ctx, nullptr, nullptr, nullptr, key_->pkey) == 1 &&
      EVP_DigestSign(ctx, reinterpret_cast<unsigned char*>(sig.data()), &len,
                     reinterpret_cast<const unsigned char*>(message.data()), message.size()) == 1;
  EVP_MD_CTX_free(ctx);
  if (!ok || len != 64) return absl::InternalError("Ed25519 signing failed");
  return sig;
}

std::string Signer::PublicKeyPem() const {
  BIO* bio = BIO_new(BIO_s_mem());
  PEM_write_bio_PUBKEY(bio, key_->pkey);
  char* data = nullptr;
  long len = BIO_get_mem_data(bio, &data);
  std::string pem(data, len);
  BIO_free(bio);
  return pem;
}

struct PublicKey::Key {
  EVP_PKEY* pkey = nullptr;
  ~Key() { EVP_PKEY_free(pkey); }
};

PublicKey::PublicKey(std::unique_ptr<Key> key, std::string der)
    : key_(std::move(key)), der_(std::move(der)) {}
PublicKey::PublicKey(PublicKey&&) noexcept = default;
PublicKey& PublicKey::operator=(PublicKey&&) noexcept = default;
PublicKey::~PublicKey() = default;

absl::StatusOr<PublicKey> PublicKey::FromDer(absl::string_view der) {
  const auto* p = reinterpret_cast<const unsigned char*>(der.data());
  auto key = std::make_unique<Key>();
  key->pkey = d2i_PUBKEY(nullptr, &p, static_cast<long>(der.size()));
  if (key->pkey == nullptr || EVP_PKEY_get_id(key->pkey) != EVP_PKEY_ED25519) {
    return absl::InvalidArgumentError("not an Ed25519 public key");
  }
  return PublicKey(std::move(key), std::string(der));
}

absl::Status PublicKey::Verify(absl::string_view message, absl::string_view signature) const {
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  int rc = ctx == nullptr ? 0 : EVP_DigestVerifyInit(ctx, nullptr, nullptr, nullptr, key_->pkey);
  if (rc == 1) {
    rc = EVP_DigestVerify(ctx, reinterpret_cast<const unsigned char*>(signature.data()),
                          signature.size(), reinterpret_cast<const unsigned char*>(message.data()),
                          message.size());
  }
  EVP_MD_CTX_free(ctx);
  if (rc != 1) return absl::DataLossError("bad Ed25519 signature");
  return absl::OkStatus();
}

absl::Status VerifySignature(absl::string_view public_key_der, absl::string_view message,
                             absl::string_view signature) {
  absl::StatusOr<PublicKey> key = PublicKey::FromDer(public_key_der);
  if (!key.ok()) return key.status();
  return key->Verify(message, signature);
}

absl::StatusOr<std::string> ReadPublicKeyFile(const std::string& path) {
  absl::StatusOr<std::string> data = ReadFile(path);
  if (!data.ok()) return data.status();
  if (data->rfind("-----BEGIN", 0) != 0) return data;  // already DER
  BIO* bio = BIO_new_mem_buf(data->data(), static_cast<int>(data->size()));
  EVP_PKEY* pkey = PEM_read_bio_PUBKEY(bio, nullptr, nullptr, nullptr);
  BIO_free(bio);
  if (pkey == nullptr)
    return absl::InvalidArgumentError(absl::StrCat(path, " holds no public key"));
  absl::StatusOr<std::string> der = PublicDer(pkey);
  EVP_PKEY_free(pkey);
  return der;
}

namespace {

// Writes `content` to `path` unless it already holds exactly that.
absl::Status WriteIfChanged(const std::string& path, const std::string& content) {
  absl::StatusOr<std::string> now = ReadFile(path);
  if (now.ok() && *now == content) return absl::OkStatus();
  std::ofstream out(path + ".tmp", std::ios::binary | std::ios::trunc);
  out << content;
  out.close();
  if (!out || std::rename((path + ".tmp").c_str(), path.c_str()) != 0) {
    return absl::UnavailableError(absl::StrCat("cannot write ", path));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<Signer> LoadSigningKey(const std::string& dir, absl::string_view requested_origin,
                                      absl::string_view default_origin) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return absl::UnavailableError(absl::StrCat("cannot create ", dir, ": ", ec.message()));
  std::string origin(!requested_origin.empty() ? requested_origin
                     : !default_origin.empty() ? default_origin
                                               : DefaultLogOrigin(dir));
  if (!IsValidNoteName(origin)) {
    return absl::InvalidArgumentError(
        absl::StrCat("log origin '", origin, "': a non-empty name with no spaces and no '+'"));
  }
  absl::StatusOr<Signer> signer = Signer::LoadOrCreate(dir + "/ledger.key", std::move(origin));
  if (!signer.ok()) return signer.status();
  std::string pub = dir + "/ledger.pub";
  if (access(pub.c_str(), F_OK) != 0) {
    if (absl::Status s = WriteIfChanged(pub, signer->PublicKeyPem()); !s.ok()) return s;
  }
  if (absl::Status s = WriteIfChanged(dir + "/ledger.vkey", signer->VerifierKey() + "\n");
      !s.ok()) {
    return s;
  }
  return signer;
}

}  // namespace arbiter::ledger
