#include "adjudicator/service/console/sessions.h"

#include <openssl/crypto.h>
#include <openssl/rand.h>

#include <algorithm>
#include <utility>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

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

}  // namespace

absl::StatusOr<Session> Sessions::Open(std::optional<std::string> secret) {
  absl::StatusOr<std::string> id = RandomHex();
  if (!id.ok()) return id.status();
  absl::StatusOr<std::string> csrf = RandomHex();
  if (!csrf.ok()) return csrf.status();
  Session session{*std::move(id), *std::move(csrf), std::move(secret), absl::Now()};
  absl::MutexLock lock(&mu_);
  const std::string owner = session.secret.value_or("");
  std::deque<std::string>& own = by_token_[owner];
  if (session.secret.has_value() && own.size() >= kMaxPerToken) Drop(std::string(own.front()));
  if (sessions_.size() >= kMaxSessions) {
    auto most = std::max_element(
        by_token_.begin(), by_token_.end(),
        [](const auto& a, const auto& b) { return a.second.size() < b.second.size(); });
    Drop(std::string(most->second.front()));
  }
  by_token_[owner].push_back(session.id);
  sessions_[session.id] = session;
  return session;
}

void Sessions::Drop(const std::string& id) {
  auto it = sessions_.find(id);
  if (it == sessions_.end()) return;
  const std::string owner = it->second.secret.value_or("");
  sessions_.erase(it);
  auto list = by_token_.find(owner);
  if (list == by_token_.end()) return;
  list->second.erase(std::remove(list->second.begin(), list->second.end(), id), list->second.end());
  if (list->second.empty()) by_token_.erase(list);
}

std::optional<Session> Sessions::Find(absl::string_view id) {
  absl::MutexLock lock(&mu_);
  auto it = sessions_.find(id);
  if (it == sessions_.end()) return std::nullopt;
  if (absl::Now() - it->second.started > kLifetime) {
    Drop(it->second.id);
    return std::nullopt;
  }
  return it->second;
}

void Sessions::Close(absl::string_view id) {
  absl::MutexLock lock(&mu_);
  Drop(std::string(id));
}

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
