// Reading and writing whole files in tests.
//
// Tests read only files they expect to exist (test data, a child's output),
// so an unreadable one is a broken setup, not an outcome to assert on: these
// abort the test binary with the path and the reason on stderr.
#ifndef ARBITER_TESTS_SUPPORT_FILES_H_
#define ARBITER_TESTS_SUPPORT_FILES_H_

#include <filesystem>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"

namespace arbiter::testing {

// The bytes of the file at `path`.
std::string ReadFile(const std::string& path);

// Writes `contents` to `path`, replacing what was there.
void WriteFile(const std::string& path, absl::string_view contents);

// The regular files directly in `dir` whose names end in `suffix` (every
// file when empty), sorted by path; names starting with '.' are left out.
std::vector<std::filesystem::path> FilesIn(const std::string& dir, absl::string_view suffix = "");

}  // namespace arbiter::testing

#endif  // ARBITER_TESTS_SUPPORT_FILES_H_
