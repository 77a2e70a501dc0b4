// One server per address and per data folder (issue 27.1), from the
// outside: a second `arbiter serve` on the gRPC port or the console port of
// a running one, or on its data folder, exits 3 saying so, and the first
// goes on serving every call alone.
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "tests/support/arbiter_process.h"
#include "tests/support/paths.h"
#include "tests/support/subprocess.h"
#include "tests/support/temp_dir.h"

namespace arbiter::testing {
namespace {

// `arbiter serve ARGS`, killed after 20 s if it keeps serving (a server that
// shares the port does): its exit status and stderr.
ProcessResult SecondServer(const std::vector<std::string>& args) {
  std::vector<std::string> argv = {"/usr/bin/timeout", "-s",   "KILL", "20",
                                   ArbiterBinary(),    "serve"};
  argv.insert(argv.end(), args.begin(), args.end());
  return Run(argv);
}

class OneServerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    first_ = ServerProcess::Start(dir_.File("first"), {"--http", "127.0.0.1:0"});
    ASSERT_NE(first_, nullptr);
    ASSERT_FALSE(first_->console_address().empty());
  }

  // Every call still reaches the first server: its game is found each time.
  void ExpectFirstServesAlone() {
    const ProcessResult created = RunCli(
        {"game", "create", "--id", "only-here", "--black", "Li Wei,5d", "--white", "Wang Fang,5d"},
        "", first_->address());
    ASSERT_EQ(created.exit, 0) << created.err;
    for (int i = 0; i < 6; ++i) {
      const ProcessResult shown = RunCli({"show", "only-here"}, "", first_->address());
      EXPECT_EQ(shown.exit, 0) << shown.err;
    }
  }

  TempDir dir_{"one-server-test"};
  std::unique_ptr<ServerProcess> first_;
};

TEST_F(OneServerTest, SecondServerOnTheGrpcPortIsRefused) {
  const ProcessResult second =
      SecondServer({"--db", dir_.File("second"), "--listen", first_->address()});
  EXPECT_EQ(second.exit, 3) << second.out << second.err;
  EXPECT_TRUE(absl::StrContains(second.err,
                                absl::StrCat("arbiter serve: address in use: ", first_->address())))
      << second.err;
  EXPECT_FALSE(absl::StrContains(second.out, "listening on")) << second.out;
  ExpectFirstServesAlone();
}

TEST_F(OneServerTest, SecondConsoleOnTheConsolePortIsRefused) {
  const ProcessResult second = SecondServer({"--db", dir_.File("second"), "--listen", "127.0.0.1:0",
                                             "--http", first_->console_address()});
  EXPECT_EQ(second.exit, 3) << second.out << second.err;
  EXPECT_TRUE(absl::StrContains(
      second.err, absl::StrCat("arbiter serve: address in use: ", first_->console_address())))
      << second.err;
  EXPECT_FALSE(absl::StrContains(second.out, "console on")) << second.out;
}

TEST_F(OneServerTest, SecondServerOnTheDataFolderIsRefusedNamingTheHolder) {
  const ProcessResult second =
      SecondServer({"--db", dir_.File("first"), "--listen", "127.0.0.1:0"});
  EXPECT_EQ(second.exit, 3) << second.out << second.err;
  EXPECT_TRUE(absl::StrContains(second.err, dir_.File("first"))) << second.err;
  EXPECT_TRUE(absl::StrContains(second.err, absl::StrCat("pid ", first_->pid()))) << second.err;
  EXPECT_TRUE(absl::StrContains(second.err, absl::StrCat("listening on ", first_->address())))
      << second.err;
  EXPECT_TRUE(absl::StrContains(second.err, first_->console_address())) << second.err;
  ExpectFirstServesAlone();
}

// The lock dies with its holder: a crashed server's folder serves again.
TEST_F(OneServerTest, FolderIsFreeOnceItsServerIsGone) {
  first_->Stop(SIGKILL);
  std::unique_ptr<ServerProcess> again = ServerProcess::Start(dir_.File("first"));
  ASSERT_NE(again, nullptr);
}

}  // namespace
}  // namespace arbiter::testing
