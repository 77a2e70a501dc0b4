#include "adjudicator/service/console/sessions.h"

#include <openssl/crypto.h>
#include <openssl/rand.h>

#include <utility>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "proto/canonical/sha256.h"

namespace arbiter::service::console {
namespace {

absl::StatusOr<std::string> RandomHex() {
  unsigned char bytes[32];
  if (RAND_bytes(bytes, sizeof bytes) != 1) {
    return absl::InternalError("no randomness for a session (RAND_bytes failed)");
  }
  return absl::BytesToHexString(
      absl::string_view(reinterpret_cast<const char*>(bytes), sizeof bytes));
}

// The stored form of a session id: its SHA-256, never the id itself.
std::string Stored(absl::string_view id) { return std::string(AsBytes(Sha256(id))); }

// The CSRF token of session `id`: a hash of it under a label of its own, so
// it is not the stored hash and tells nothing of the id.
std::string CsrfOf(absl::string_view id) {
  return ToHex(Sha256(absl::StrCat("arbiter console csrf\n", id)));
}

}  // namespace

absl::StatusOr<Session> Sessions::Open(std::optional<std::string> token_id) {
  absl::StatusOr<std::string> id = RandomHex();
  if (!id.ok()) return id.status();
  const absl::Time now = absl::Now();
  ledger::SessionRow row{Stored(*id), token_id.value_or(""), absl::ToUnixMicros(now)};
  ledger::SessionBounds bounds{static_cast<int64_t>(per_token_), static_cast<int64_t>(in_all_),
                               absl::ToUnixMicros(now - kLifetime)};
  if (absl::Status s = tables_->OpenSession(row, bounds); !s.ok()) return s;
  std::string csrf = CsrfOf(*id);
  return Session{*std::move(id), std::move(csrf), std::move(token_id), now};
}

absl::StatusOr<std::optional<Session>> Sessions::Find(absl::string_view id) {
  absl::StatusOr<std::optional<ledger::SessionRow>> row = tables_->SessionByHash(Stored(id));
  if (!row.ok()) return row.status();
  if (!row->has_value()) return std::nullopt;
  const absl::Time started = absl::FromUnixMicros((*row)->started);
  if (absl::Now() - started > kLifetime) {
    if (absl::Status s = tables_->CloseSession(Stored(id)); !s.ok()) return s;
    return std::nullopt;
  }
  std::optional<std::string> token;
  if (!(*row)->token_id.empty()) token = (*row)->token_id;
  return Session{std::string(id), CsrfOf(id), std::move(token), started};
}

absl::Status Sessions::Close(absl::string_view id) { return tables_->CloseSession(Stored(id)); }

std::string SessionCookieHeader(absl::string_view id, bool secure) {
  return absl::StrCat(kSessionCookie, "=", id, "; Path=/; HttpOnly; SameSite=Strict; Max-Age=",
                      absl::ToInt64Seconds(Sessions::kLifetime), secure ? "; Secure" : "");
}

std::string ClearedCookieHeader(bool secure) {
  return absl::StrCat(kSessionCookie, "=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0",
                      secure ? "; Secure" : "");
}

std::optional<std::string> CookieValue(absl::string_view header, absl::string_view name) {
  for (absl::string_view part : absl::StrSplit(header, ';')) {
    part = absl::StripAsciiWhitespace(part);
    if (absl::ConsumePrefix(&part, name) && absl::ConsumePrefix(&part, "=")) {
      return std::string(part);
    }
  }
  return std::nullopt;
}

bool SameSecret(absl::string_view a, absl::string_view b) {
  return a.size() == b.size() && CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

}  // namespace arbiter::service::console
