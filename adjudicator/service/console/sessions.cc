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
  if (sessions_.size() >= kMaxSessions) {
    // Drop the older half: a flood of sign-ins cannot grow memory.
    std::vector<absl::Time> starts;
    for (const auto& [k, s] : sessions_) starts.push_back(s.started);
    std::nth_element(starts.begin(), starts.begin() + starts.size() / 2, starts.end());
    const absl::Time cut = starts[starts.size() / 2];
    absl::erase_if(sessions_, [&](const auto& kv) { return kv.second.started <= cut; });
  }
  sessions_[session.id] = session;
  return session;
}

std::optional<Session> Sessions::Find(absl::string_view id) {
  absl::MutexLock lock(&mu_);
  auto it = sessions_.find(id);
  if (it == sessions_.end()) return std::nullopt;
  if (absl::Now() - it->second.started > kLifetime) {
    sessions_.erase(it);
    return std::nullopt;
  }
  return it->second;
}

void Sessions::Close(absl::string_view id) {
  absl::MutexLock lock(&mu_);
  sessions_.erase(id);
}

std::string SessionCookieHeader(absl::string_view id) {
  return absl::StrCat(kSessionCookie, "=", id, "; Path=/; HttpOnly; SameSite=Strict; Max-Age=",
                      absl::ToInt64Seconds(Sessions::kLifetime));
}

std::string ClearedCookieHeader() {
  return absl::StrCat(kSessionCookie, "=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0");
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
