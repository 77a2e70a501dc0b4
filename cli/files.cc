#include "cli/files.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "absl/strings/str_cat.h"

namespace arbiter::cli {
namespace {

// The folder a file at `path` lives in: "." for a bare name.
std::string FolderOf(const std::string& path) {
  const std::string parent = std::filesystem::path(path).parent_path().string();
  return parent.empty() ? "." : parent;
}

// The errors that are the path's own (the user's to fix), not the system's.
bool IsPathError(int error) {
  return error == ENOENT || error == ENOTDIR || error == EISDIR || error == EACCES ||
         error == EPERM || error == EROFS || error == ENAMETOOLONG || error == ELOOP;
}

}  // namespace

std::string WhyNotOpened(const std::string& path, int error) {
  std::error_code ec;
  const std::string folder = FolderOf(path);
  switch (error) {
    case ENOENT:
      if (!std::filesystem::exists(folder, ec)) {
        return absl::StrCat("the folder ", folder, " does not exist");
      }
      return "no such file";
    case ENOTDIR:
      return "a part of the path is a file, not a folder";
    case EISDIR:
      return "a folder, not a file";
    case EACCES:
    case EPERM:
      return "permission denied";
    case EROFS:
      return "the file system is read-only";
    case ENOSPC:
      return "no space left on the device";
    default:
      return std::strerror(error);
  }
}

std::optional<std::string> OpenToRead(const std::string& path, std::ifstream* file) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return WhyNotOpened(path, EISDIR);
  errno = 0;
  file->open(path);
  if (!*file) return WhyNotOpened(path, errno != 0 ? errno : ENOENT);
  return std::nullopt;
}

absl::StatusOr<std::string> ReadInput(const std::string& path) {
  std::stringstream text;
  if (path == "-") {
    text << std::cin.rdbuf();
    if (std::cin.bad()) return absl::DataLossError("cannot read stdin");
    return text.str();
  }
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return absl::NotFoundError("a folder, not a file");
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(WhyNotOpened(path, errno != 0 ? errno : ENOENT));
  text << in.rdbuf();
  if (in.bad()) return absl::DataLossError("cannot read the file");
  return text.str();
}

bool ReadsStdinTwice(const std::vector<std::string>& paths) {
  return std::count(paths.begin(), paths.end(), "-") > 1;
}

absl::Status CheckWritable(const std::string& path) {
  std::error_code ec;
  const std::string folder = FolderOf(path);
  if (!std::filesystem::exists(folder, ec)) {
    return absl::InvalidArgumentError(absl::StrCat("the folder ", folder, " does not exist"));
  }
  if (!std::filesystem::is_directory(folder, ec)) {
    return absl::InvalidArgumentError(absl::StrCat(folder, " is a file, not a folder"));
  }
  if (std::filesystem::is_directory(path, ec)) {
    return absl::InvalidArgumentError("a folder, not a file");
  }
  if (::access(folder.c_str(), W_OK) != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat(WhyNotOpened(path, errno), " (the folder ", folder, " is not writable)"));
  }
  return absl::OkStatus();
}

absl::Status WriteFileAtomically(const std::string& path, std::string_view content) {
  auto failed = [&](int error) {
    const std::string why = absl::StrCat("cannot write ", path, ": ", WhyNotOpened(path, error));
    return IsPathError(error) ? absl::InvalidArgumentError(why) : absl::UnavailableError(why);
  };
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return failed(EISDIR);
  const std::string tmp = path + ".tmp";
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return failed(errno);
  for (size_t done = 0; done < content.size();) {
    const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int error = errno;
      ::close(fd);
      ::unlink(tmp.c_str());
      return failed(error);
    }
    done += static_cast<size_t>(n);
  }
  if (::close(fd) != 0) {
    const int error = errno;
    ::unlink(tmp.c_str());
    return failed(error);
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    const int error = errno;
    ::unlink(tmp.c_str());
    return failed(error);
  }
  return absl::OkStatus();
}

}  // namespace arbiter::cli
