// A fresh temporary directory per test, removed afterwards unless
// LEDGER_TEST_KEEP is set.
#ifndef ARBITER_TESTS_LEDGER_TEST_DIR_H_
#define ARBITER_TESTS_LEDGER_TEST_DIR_H_

#include <stdlib.h>

#include <filesystem>
#include <string>

namespace arbiter::ledger::testing {

class TestDir {
 public:
  TestDir() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "ledger-test-XXXXXX").string();
    path_ = mkdtemp(tmpl.data());
  }
  ~TestDir() {
    if (getenv("LEDGER_TEST_KEEP") != nullptr) return;  // for poking at with the CLI
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  const std::string& path() const { return path_; }
  std::string db() const { return path_ + "/ledger.db"; }

 private:
  std::string path_;
};

}  // namespace arbiter::ledger::testing

#endif  // ARBITER_TESTS_LEDGER_TEST_DIR_H_
