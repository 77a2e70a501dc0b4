#include "tests/support/paths.h"

#include "absl/strings/str_cat.h"

namespace arbiter::testing {

std::string SourcePath(absl::string_view relative) {
  return absl::StrCat(ARBITER_SOURCE_DIR, "/", relative);
}

std::string TestDataPath(absl::string_view relative) {
  return absl::StrCat(ARBITER_SOURCE_DIR, "/tests/data/", relative);
}

std::string ArbiterBinary() { return ARBITER_BINARY; }

}  // namespace arbiter::testing
