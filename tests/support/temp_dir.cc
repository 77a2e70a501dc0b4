#include "tests/support/temp_dir.h"

#include <stdlib.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "absl/strings/str_cat.h"

namespace arbiter::testing {

TempDir::TempDir(absl::string_view prefix, const std::string& parent) {
  const std::filesystem::path base =
      parent.empty() ? std::filesystem::temp_directory_path() : std::filesystem::path(parent);
  std::string name = (base / absl::StrCat(prefix, "-XXXXXX")).string();
  if (mkdtemp(name.data()) == nullptr) {
    std::fprintf(stderr, "test support: cannot make %s: %s\n", name.c_str(), std::strerror(errno));
    std::abort();
  }
  path_ = name;
}

TempDir::~TempDir() {
  if (getenv("ARBITER_TEST_KEEP") != nullptr) {
    std::fprintf(stderr, "kept %s\n", path_.c_str());
    return;
  }
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

std::string TempDir::File(absl::string_view name) const { return absl::StrCat(path_, "/", name); }

}  // namespace arbiter::testing
