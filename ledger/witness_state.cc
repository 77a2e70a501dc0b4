#include "ledger/witness_state.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <utility>

#include "absl/strings/escaping.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "proto/canonical/sha256.h"

namespace arbiter::ledger {
namespace {

// A record: this header, the origin, the size, the base64 root, a blank
// line, then the note verbatim.
constexpr absl::string_view kStateHeader = "arbiter witness state v1\n";
constexpr absl::string_view kSuffix = ".checkpoint";

std::string Encode(absl::string_view origin, const WitnessedCheckpoint& c) {
  return absl::StrCat(kStateHeader, origin, "\n", c.size, "\n", absl::Base64Escape(AsBytes(c.root)),
                      "\n\n", c.note);
}

bool Decode(absl::string_view text, std::string* origin, WitnessedCheckpoint* c) {
  if (!absl::ConsumePrefix(&text, kStateHeader)) return false;
  std::vector<absl::string_view> head = absl::StrSplit(text, absl::MaxSplits('\n', 4));
  if (head.size() != 5 || !head[3].empty() || head[0].empty()) return false;
  std::string root;
  if (!absl::SimpleAtoi(head[1], &c->size) || !absl::Base64Unescape(head[2], &root) ||
      !HashFromBytes(root, &c->root)) {
    return false;
  }
  *origin = std::string(head[0]);
  c->note = std::string(head[4]);
  return true;
}

absl::Status Unavailable(absl::string_view what, const std::string& path) {
  return absl::UnavailableError(
      absl::StrCat("witness state: cannot ", what, " ", path, ": ", std::strerror(errno)));
}

absl::Status SyncPath(const std::string& path, int flags) {
  const int fd = ::open(path.c_str(), flags | O_CLOEXEC);
  if (fd < 0) return Unavailable("open", path);
  const bool ok = ::fsync(fd) == 0;
  ::close(fd);
  return ok ? absl::OkStatus() : Unavailable("sync", path);
}

}  // namespace

absl::StatusOr<std::unique_ptr<WitnessState>> WitnessState::Open(const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    return absl::UnavailableError(
        absl::StrCat("witness state: cannot make ", dir, ": ", ec.message()));
  }
  auto state = std::unique_ptr<WitnessState>(new WitnessState(dir));
  for (const auto& file : std::filesystem::directory_iterator(dir, ec)) {
    const std::string path = file.path().string();
    if (file.path().extension().string() != kSuffix) continue;  // a .tmp left by a crash
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    if (!in) return Unavailable("read", path);
    std::string origin;
    WitnessedCheckpoint c;
    if (!Decode(text.str(), &origin, &c) || state->PathOf(origin) != path) {
      return absl::DataLossError(absl::StrCat("witness state: ", path, " is not a record"));
    }
    absl::MutexLock lock(&state->mu_);
    state->latest_[origin] = std::move(c);
  }
  if (ec) {
    return absl::UnavailableError(
        absl::StrCat("witness state: cannot list ", dir, ": ", ec.message()));
  }
  return state;
}

std::string WitnessState::PathOf(absl::string_view origin) const {
  return (std::filesystem::path(dir_) / absl::StrCat(Sha256Hex(origin), kSuffix)).string();
}

std::optional<WitnessedCheckpoint> WitnessState::Get(absl::string_view origin) const {
  absl::MutexLock lock(&mu_);
  auto it = latest_.find(origin);
  if (it == latest_.end()) return std::nullopt;
  return it->second;
}

absl::Status WitnessState::Put(absl::string_view origin, WitnessedCheckpoint latest) {
  const std::string path = PathOf(origin);
  const std::string tmp = absl::StrCat(path, ".tmp");
  const std::string bytes = Encode(origin, latest);
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return Unavailable("create", tmp);
  const bool written =
      ::write(fd, bytes.data(), bytes.size()) == static_cast<ssize_t>(bytes.size());
  const bool synced = written && ::fsync(fd) == 0;
  ::close(fd);
  if (!synced) return Unavailable("write", tmp);
  if (::rename(tmp.c_str(), path.c_str()) != 0) return Unavailable("rename", tmp);
  if (absl::Status s = SyncPath(dir_, O_RDONLY | O_DIRECTORY); !s.ok()) return s;
  absl::MutexLock lock(&mu_);
  latest_[std::string(origin)] = std::move(latest);
  return absl::OkStatus();
}

}  // namespace arbiter::ledger
