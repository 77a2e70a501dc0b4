// Issue 33.5: an `arbiter serve --http` checked by Go's sumdb/note and
// sumdb/tlog (tests/c2sp/verifier.go), as any C2SP client would check it.
// The log is a ledger written by the code before notes (tests/data/
// ledger-v0: a recorded tournament game with its rulings) that then grows
// past one full tile: the checkpoint opens with the published ledger.vkey,
// the tiles hash to the signed root, a ruling's event is proven included,
// the two checkpoints are proven consistent; and an altered tile and a
// wrong key are refused.
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "gtest/gtest.h"
#include "ledger/hash.h"
#include "ledger/note_key.h"
#include "ledger/signer.h"
#include "ledger/sqlite/log_reader.h"
#include "tests/support/arbiter_process.h"
#include "tests/support/files.h"
#include "tests/support/paths.h"
#include "tests/support/subprocess.h"
#include "tests/support/temp_dir.h"

namespace arbiter {
namespace {

using testing::ProcessResult;

class GoVerifierTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_STRNE(GO_VERIFIER, "")
        << "no Go toolchain at configure time: apt-get install golang-go "
           "golang-golang-x-mod-dev (scripts/ and .ci/run install them), then reconfigure";
    data_ = dir_.File("data");
    std::filesystem::create_directories(data_);
    for (const char* f : {"ledger.db", "ledger.key", "ledger.pub"}) {
      std::filesystem::copy_file(testing::TestDataPath(std::string("ledger-v0/") + f),
                                 data_ + "/" + f);
    }
  }

  // The first event that drew a ruling, and its record (leaf) hash.
  void FindRuling(uint64_t* position, std::string* leaf_hex) {
    absl::StatusOr<ledger::LogReader> reader = ledger::LogReader::Open(data_ + "/ledger.db");
    ASSERT_TRUE(reader.ok()) << reader.status();
    absl::StatusOr<std::vector<v1::LedgerEntry>> entries = reader->ReadLog(0, 1000);
    ASSERT_TRUE(entries.ok());
    for (const v1::LedgerEntry& e : *entries) {
      if (e.rulings_size() == 0) continue;
      *position = e.position();
      *leaf_hex = ToHex(ledger::LeafHash(e.event()));
      return;
    }
    FAIL() << "the fixture holds no ruling";
  }

  ProcessResult Verify(std::vector<std::string> args) {
    args.insert(args.begin(),
                {GO_VERIFIER, "-url", absl::StrCat("http://", server_->console_address())});
    return testing::Run(args, {.merge_stderr = true});
  }

  testing::TempDir dir_;
  std::string data_;
  std::unique_ptr<testing::ServerProcess> server_;
};

TEST_F(GoVerifierTest, ChecksTheLogWithSumdbNoteAndTlog) {
  uint64_t ruling = 0;
  std::string leaf;
  FindRuling(&ruling, &leaf);
  server_ = testing::ServerProcess::Start(
      data_, {"--http", "127.0.0.1:0", "--log-origin", "venue.example/c2sp-test"});
  ASSERT_NE(server_, nullptr);
  const std::string vkey = data_ + "/ledger.vkey";
  const std::string state = dir_.File("checkpoint.seen");

  ProcessResult first =
      Verify({"-vkey", vkey, "-position", absl::StrCat(ruling), "-leaf", leaf, "-state", state});
  ASSERT_EQ(first.exit, 0) << first.out;
  EXPECT_NE(first.out.find("checkpoint venue.example/c2sp-test size 156"), std::string::npos)
      << first.out;
  EXPECT_NE(first.out.find("tiles hash to the signed root"), std::string::npos) << first.out;
  EXPECT_NE(first.out.find(absl::StrCat("event ", ruling, " (")), std::string::npos) << first.out;

  // The same tournament's game again as board 2: 156 more events, so the
  // log passes a full tile (256) and a level-1 tile.
  std::string board2 = absl::StrReplaceAll(
      testing::ReadFile(testing::SourcePath("cli/examples/tournament-round3.jsonl")),
      {{"tournament-round3-board1", "tournament-round3-board2"}});
  ProcessResult recorded = testing::RunCli({"record", "--replay", "-"}, board2, server_->address());
  ASSERT_EQ(recorded.exit, 0) << recorded.err;

  ProcessResult second =
      Verify({"-vkey", vkey, "-state", state, "-min-size", "312", "-position", "300"});
  ASSERT_EQ(second.exit, 0) << second.out;
  EXPECT_NE(second.out.find("size 312"), std::string::npos) << second.out;
  EXPECT_NE(second.out.find("event 300 ("), std::string::npos) << second.out;
  EXPECT_NE(second.out.find("consistent with the earlier checkpoint of size 156"),
            std::string::npos)
      << second.out;

  // A lying server: every hash tile with one bit flipped.
  ProcessResult tampered = Verify({"-vkey", vkey, "-tamper"});
  EXPECT_EQ(tampered.exit, 1) << tampered.out;
  EXPECT_NE(tampered.out.find("inconsistent tile"), std::string::npos) << tampered.out;

  // Another key under the log's name: the checkpoint does not open.
  absl::StatusOr<ledger::Signer> other = ledger::LoadSigningKey(dir_.File("other"));
  ASSERT_TRUE(other.ok());
  const std::string wrong = dir_.File("wrong.vkey");
  {
    std::ofstream out(wrong);
    out << ledger::FormatVerifierKey("venue.example/c2sp-test",
                                     ledger::RawEd25519PublicKey(other->public_key_der()).value())
               .value()
        << "\n";
  }
  ProcessResult wrong_key = Verify({"-vkey", wrong});
  EXPECT_EQ(wrong_key.exit, 1) << wrong_key.out;
  EXPECT_NE(wrong_key.out.find("checkpoint does not verify"), std::string::npos) << wrong_key.out;
}

}  // namespace
}  // namespace arbiter
