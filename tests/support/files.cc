#include "tests/support/files.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <system_error>

#include "absl/strings/match.h"

namespace arbiter::testing {
namespace {

[[noreturn]] void Die(const std::string& what, const std::string& path, const std::string& why) {
  std::fprintf(stderr, "test support: cannot %s %s: %s\n", what.c_str(), path.c_str(), why.c_str());
  std::abort();
}

}  // namespace

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) Die("read", path, std::strerror(errno));
  std::ostringstream bytes;
  bytes << in.rdbuf();
  if (in.bad()) Die("read", path, "I/O error");
  return bytes.str();
}

void WriteFile(const std::string& path, absl::string_view contents) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) Die("write", path, std::strerror(errno));
  out.write(contents.data(), static_cast<std::streamsize>(contents.size()));
  out.close();
  if (!out) Die("write", path, "I/O error");
}

std::vector<std::filesystem::path> FilesIn(const std::string& dir, absl::string_view suffix) {
  std::vector<std::filesystem::path> files;
  std::error_code ec;
  for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (it->is_regular_file() && name[0] != '.' && absl::EndsWith(name, suffix)) {
      files.push_back(it->path());
    }
  }
  if (ec) Die("list", dir, ec.message());
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace arbiter::testing
