// Where tests find the repository's files and the built `arbiter` binary
// (fixed when the support library is built, so no test takes them as
// compile definitions of its own).
#ifndef ARBITER_TESTS_SUPPORT_PATHS_H_
#define ARBITER_TESTS_SUPPORT_PATHS_H_

#include <string>

#include "absl/strings/string_view.h"

namespace arbiter::testing {

// SOURCE/relative, SOURCE the repository's top folder.
std::string SourcePath(absl::string_view relative);

// The shared test data: SOURCE/tests/data/relative (scenarios/public, sgf).
std::string TestDataPath(absl::string_view relative);

// The `arbiter` binary of this build. A test that runs it names `arbiter`
// as a dependency in its CMakeLists.
std::string ArbiterBinary();

}  // namespace arbiter::testing

#endif  // ARBITER_TESTS_SUPPORT_PATHS_H_
