// Audits of a write-protected ledger (issue 27.4), as an auditor meets one:
// a copy of a venue's data folder, every file and folder of it read-only,
// read by a user who cannot write it (nobody, when the test runs as root).
// `verify --db` and `export --db --bundle` work on it and change nothing of
// it; `serve` on it refuses, naming the folder.
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
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

namespace fs = std::filesystem;

// `arbiter ARGS` as a user who may not write the copy: nobody when this
// runs as root (root writes whatever the modes say), else this user.
ProcessResult AsAuditor(const std::vector<std::string>& args) {
  std::vector<std::string> argv;
  if (geteuid() == 0) {
    argv = {"/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--"};
  }
  argv.push_back(ArbiterBinary());
  argv.insert(argv.end(), args.begin(), args.end());
  return Run(argv);
}

// Every file and folder under `root` (itself included) given `file` and
// `folder` modes.
void ChmodTree(const fs::path& root, fs::perms folder, fs::perms file) {
  fs::permissions(root, folder);
  for (const fs::directory_entry& e : fs::recursive_directory_iterator(root)) {
    fs::permissions(e.path(), e.is_directory() ? folder : file);
  }
}

// Each file's size and modification time, to see that nothing changed.
std::string Listing(const fs::path& root) {
  std::string out;
  for (const fs::directory_entry& e : fs::recursive_directory_iterator(root)) {
    absl::StrAppend(&out, e.path().string(), " ");
    if (e.is_regular_file()) {
      absl::StrAppend(&out, e.file_size(), " ", e.last_write_time().time_since_epoch().count());
    }
    out += "\n";
  }
  return out;
}

class ReadOnlyAuditTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // The auditor must reach the copy and write the bundle beside it.
    fs::permissions(dir_.path(), fs::perms::owner_all | fs::perms::group_read |
                                     fs::perms::group_exec | fs::perms::others_read |
                                     fs::perms::others_exec);
    {
      std::unique_ptr<ServerProcess> server = ServerProcess::Start(dir_.File("data"));
      ASSERT_NE(server, nullptr);
      const ProcessResult r = RunCli({"record", TestDataPath("scenarios/public/phone-twice.jsonl")},
                                     "", server->address());
      ASSERT_EQ(r.exit, 0) << r.err;
      ASSERT_EQ(server->Stop(), 0) << server->log();
    }
    fs::copy(dir_.File("data"), copy_, fs::copy_options::recursive);
    ChmodTree(copy_,
              fs::perms::owner_read | fs::perms::owner_exec | fs::perms::group_read |
                  fs::perms::group_exec | fs::perms::others_read | fs::perms::others_exec,
              fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
    fs::create_directory(out_);
    fs::permissions(out_, fs::perms::all);
    before_ = Listing(copy_);
  }

  void TearDown() override {
    EXPECT_EQ(Listing(copy_), before_) << "the audit changed the copy";
    ChmodTree(copy_, fs::perms::owner_all, fs::perms::owner_read | fs::perms::owner_write);
  }

  TempDir dir_{"readonly-audit-test"};
  const std::string copy_ = dir_.File("copy");
  const std::string out_ = dir_.File("out");
  std::string before_;
};

TEST_F(ReadOnlyAuditTest, VerifyReadsAWriteProtectedCopy) {
  const ProcessResult r = AsAuditor({"verify", "--db", copy_});
  EXPECT_EQ(r.exit, 0) << r.out << r.err;
  EXPECT_FALSE(absl::StrContains(r.err, "readonly")) << r.err;
  EXPECT_TRUE(absl::StrContains(r.out, "intact")) << r.out;
  const ProcessResult game = AsAuditor({"verify", "--db", copy_, "phone-twice"});
  EXPECT_EQ(game.exit, 0) << game.out << game.err;
}

TEST_F(ReadOnlyAuditTest, ExportWritesTheBundleOfAWriteProtectedCopy) {
  const std::string bundle = out_ + "/phone-twice.bundle";
  const ProcessResult r = AsAuditor({"export", "phone-twice", "--db", copy_, "--bundle", bundle});
  ASSERT_EQ(r.exit, 0) << r.out << r.err;
  const ProcessResult v = AsAuditor({"verify", "--bundle", bundle});
  EXPECT_EQ(v.exit, 0) << v.out << v.err;
  EXPECT_TRUE(absl::StrContains(v.out, "intact")) << v.out;
}

TEST_F(ReadOnlyAuditTest, RulesNeedNothingWritable) {
  const ProcessResult r = AsAuditor({"rules", "show", "cn-2002/23.7"});
  EXPECT_EQ(r.exit, 0) << r.err;
  EXPECT_TRUE(absl::StrContains(r.out, "23.7")) << r.out;
}

TEST_F(ReadOnlyAuditTest, ServeOnAWriteProtectedCopyNamesIt) {
  const ProcessResult r = AsAuditor({"serve", "--db", copy_, "--listen", "127.0.0.1:0"});
  EXPECT_EQ(r.exit, 3) << r.out << r.err;
  EXPECT_TRUE(absl::StrContains(r.err, copy_)) << r.err;
  EXPECT_TRUE(absl::StrContains(r.err, "write-protected")) << r.err;
}

}  // namespace
}  // namespace arbiter::testing
