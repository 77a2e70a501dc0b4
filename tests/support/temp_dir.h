// A fresh directory for one test (or one benchmark run).
#ifndef ARBITER_TESTS_SUPPORT_TEMP_DIR_H_
#define ARBITER_TESTS_SUPPORT_TEMP_DIR_H_

#include <string>

#include "absl/strings/string_view.h"

namespace arbiter::testing {

// Made as PARENT/PREFIX-XXXXXX (mkdtemp; PARENT is the system temp directory
// when empty) and removed with everything in it when this goes out of scope,
// unless ARBITER_TEST_KEEP is set in the environment (to look at what a test
// left, e.g. with the CLI). A directory that cannot be made aborts the test
// binary, naming it.
class TempDir {
 public:
  explicit TempDir(absl::string_view prefix = "arbiter-test", const std::string& parent = "");
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::string& path() const { return path_; }
  // path()/name
  std::string File(absl::string_view name) const;

 private:
  std::string path_;
};

}  // namespace arbiter::testing

#endif  // ARBITER_TESTS_SUPPORT_TEMP_DIR_H_
