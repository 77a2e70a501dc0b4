#include "adjudicator/service/folder_lock.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <system_error>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/strip.h"

namespace arbiter::service {
namespace {

constexpr char kLockFile[] = "serve.lock";

// Replaces the file's text with `text`.
absl::Status Rewrite(int fd, const std::string& text) {
  if (ftruncate(fd, 0) != 0 ||
      pwrite(fd, text.data(), text.size(), 0) != static_cast<ssize_t>(text.size())) {
    return absl::UnavailableError(
        absl::StrCat("cannot write ", kLockFile, ": ", std::strerror(errno)));
  }
  return absl::OkStatus();
}

// What the holder wrote, on one line ("pid 1234, listening on ...").
std::string HolderOf(int fd) {
  char buf[512];
  const ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
  if (n <= 0) return "a process starting";
  std::string text(buf, static_cast<size_t>(n));
  return absl::StrReplaceAll(absl::StripTrailingAsciiWhitespace(text), {{"\n", ", "}});
}

}  // namespace

absl::StatusOr<FolderLock> FolderLock::Acquire(const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  const std::string path = (std::filesystem::path(dir) / kLockFile).string();
  const int fd = open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) {
    const int err = errno;
    if (err == EACCES || err == EROFS || err == EPERM) {
      return absl::UnavailableError(absl::StrCat(
          "data folder ", dir, " is write-protected (", path, ": ", std::strerror(err),
          "): a server writes its ledger there; serve a writable copy, or audit this one "
          "read-only with `arbiter verify --db ",
          dir, "` or `arbiter export --db ", dir, "`"));
    }
    return absl::UnavailableError(absl::StrCat("cannot open ", path, ": ", std::strerror(err)));
  }
  if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
    const int err = errno;
    if (err != EWOULDBLOCK) {
      close(fd);
      return absl::UnavailableError(absl::StrCat("cannot lock ", path, ": ", std::strerror(err)));
    }
    std::string holder = HolderOf(fd);
    close(fd);
    return absl::FailedPreconditionError(
        absl::StrCat("data folder ", dir, " is in use by another arbiter serve (", holder,
                     "); stop it first, or give this one another --db"));
  }
  FolderLock lock(fd);
  if (absl::Status s = Rewrite(fd, absl::StrCat("pid ", getpid(), "\n")); !s.ok()) return s;
  return lock;
}

FolderLock::FolderLock(FolderLock&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}

FolderLock::~FolderLock() {
  if (fd_ >= 0) close(fd_);  // closing the last descriptor releases the lock
}

absl::Status FolderLock::Announce(const std::string& listen, const std::string& console) {
  std::string text = absl::StrCat("pid ", getpid(), "\nlistening on ", listen, "\n");
  if (!console.empty()) absl::StrAppend(&text, "console on ", console, "\n");
  return Rewrite(fd_, text);
}

}  // namespace arbiter::service
