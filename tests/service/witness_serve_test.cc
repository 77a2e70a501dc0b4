// Issue 33.3 from the outside: a federation's `arbiter serve --witness-key
// --witness-for` witnesses a venue's `arbiter serve --witness` (two
// processes on free loopback ports): the venue's checkpoints come back
// cosigned and `arbiter verify --witnesses 1` accepts them; a stale old
// size is 409 with the size the witness holds; a fork (another root for a
// size it cosigned, signed with the venue's own key) is refused and changes
// nothing; the witness's state survives its restart.
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "gtest/gtest.h"
#include "httplib.h"
#include "ledger/cosignature.h"
#include "ledger/signed_note.h"
#include "ledger/signer.h"
#include "ledger/tlog_checkpoint.h"
#include "proto/canonical/sha256.h"
#include "tests/support/arbiter_process.h"
#include "tests/support/files.h"
#include "tests/support/subprocess.h"
#include "tests/support/temp_dir.h"

namespace arbiter::testing {
namespace {

constexpr char kOrigin[] = "venue.test/tokyo-2026";
constexpr char kWitness[] = "federation.test/w1";

std::string Line(const std::string& path) {
  return std::string(absl::StripTrailingAsciiWhitespace(ReadFile(path)));
}

class WitnessServeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // The venue's first start makes its key, origin and ledger.vkey.
    auto first = ServerProcess::Start(venue_dir_, {"--log-origin", kOrigin});
    ASSERT_NE(first, nullptr);
    first.reset();
    venue_vkey_ = Line(venue_dir_ + "/ledger.vkey");
    ASSERT_TRUE(absl::StartsWith(venue_vkey_, absl::StrCat(kOrigin, "+"))) << venue_vkey_;
    StartFederation();
    witness_vkey_ = Line(dir_.File("w1.key.vkey"));
    ASSERT_TRUE(absl::StartsWith(witness_vkey_, absl::StrCat(kWitness, "+"))) << witness_vkey_;
  }

  void StartFederation() {
    federation_ = ServerProcess::Start(
        federation_dir_,
        {"--http", "127.0.0.1:0", "--witness-key", dir_.File("w1.key"), "--witness-name", kWitness,
         "--witness-for", absl::StrCat(kOrigin, "=", venue_vkey_)});
    ASSERT_NE(federation_, nullptr);
    ASSERT_FALSE(federation_->console_address().empty());
  }

  std::unique_ptr<httplib::Client> Witness() {
    return std::make_unique<httplib::Client>(
        absl::StrCat("http://", federation_->console_address()));
  }

  // The witness's latest cosigned note for the venue (monitoring URL).
  std::string Latest() {
    httplib::Result r =
        Witness()->Get(absl::StrCat("/witness/", Sha256Hex(kOrigin), "/checkpoint"));
    if (!r || r->status != 200) return "";
    return r->body;
  }

  ProcessResult VerifyWitnessed(int k, const std::string& vkey) {
    return RunArbiter({"verify", "--db", venue_dir_, "--no-readjudicate", "--witnesses",
                       absl::StrCat(k), "--witness", vkey});
  }

  TempDir dir_{"witness-serve-test"};
  const std::string venue_dir_ = dir_.File("venue");
  const std::string federation_dir_ = dir_.File("federation");
  std::string venue_vkey_, witness_vkey_;
  std::unique_ptr<ServerProcess> federation_;
};

TEST_F(WitnessServeTest, AFederationWitnessesAVenue) {
  auto venue = ServerProcess::Start(
      venue_dir_, {"--sign-within", "200ms", "--witness",
                   absl::StrCat("http://", federation_->console_address(), "=", witness_vkey_)});
  ASSERT_NE(venue, nullptr);
  // Before anything is witnessed, a quorum of one is not met.
  EXPECT_EQ(VerifyWitnessed(1, witness_vkey_).exit, 1);
  for (const char* id : {"w-1", "w-2", "w-3"}) {
    const ProcessResult created =
        RunCli({"game", "create", "--id", id, "--black", "Li Wei,5d", "--white", "Wang Fang,5d"},
               "", venue->address());
    ASSERT_EQ(created.exit, 0) << created.err;
  }
  // The venue's checkpoint covering all three comes back cosigned.
  ProcessResult verified;
  for (int i = 0; i < 100; ++i) {
    verified = VerifyWitnessed(1, witness_vkey_);
    if (verified.exit == 0 && absl::StrContains(verified.out, "witnessed: checkpoint at size 3 "))
      break;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  ASSERT_EQ(verified.exit, 0) << verified.out << verified.err << venue->log();
  EXPECT_TRUE(absl::StrContains(verified.out, kWitness)) << verified.out;
  // The witness serves it too, the venue's signature and its own on it.
  absl::StatusOr<ledger::SignedNote> latest = ledger::ParseSignedNote(Latest());
  ASSERT_TRUE(latest.ok()) << latest.status();
  EXPECT_TRUE(absl::StartsWith(latest->text, absl::StrCat(kOrigin, "\n3\n"))) << latest->text;
  ASSERT_EQ(latest->signatures.size(), 2u);
  EXPECT_EQ(latest->signatures[1].name, kWitness);
  // Another witness's key, or a quorum of two of one key, is not met.
  const ledger::Cosigner other_witness("other.test/w",
                                       *ledger::Signer::LoadOrCreate(dir_.File("other.key")));
  const ProcessResult other = VerifyWitnessed(1, other_witness.VerifierKey());
  EXPECT_EQ(other.exit, 1) << other.out << other.err;
  EXPECT_NE(
      RunArbiter({"verify", "--db", venue_dir_, "--witnesses", "2", "--witness", witness_vkey_})
          .exit,
      0);
  venue->Stop();

  // A stale old size: 409, saying the size it holds.
  httplib::Result stale =
      Witness()->Post("/add-checkpoint", absl::StrCat("old 0\n\n", Latest()), "text/plain");
  ASSERT_TRUE(stale);
  EXPECT_EQ(stale->status, 409);
  EXPECT_EQ(stale->get_header_value("Content-Type"), "text/x.tlog.size");
  EXPECT_EQ(stale->body, "3\n");

  // A fork: the venue's own key signs another root for size 3, and a size
  // 4 that is not an extension of what was cosigned.
  absl::StatusOr<ledger::Signer> venue_key =
      ledger::Signer::LoadOrCreate(venue_dir_ + "/ledger.key");
  ASSERT_TRUE(venue_key.ok());
  for (uint64_t size : {3, 4}) {
    ledger::CheckpointBody forged{kOrigin, size, Sha256("another history"), {}};
    const std::string text = *ledger::FormatCheckpointBody(forged);
    absl::StatusOr<ledger::NoteSignature> sig = ledger::SignNoteText(text, *venue_key, kOrigin);
    ASSERT_TRUE(sig.ok()) << sig.status();
    const std::string forged_note = *ledger::FormatSignedNote({text, {*sig}});
    httplib::Result fork =
        Witness()->Post("/add-checkpoint", absl::StrCat("old 3\n\n", forged_note), "text/plain");
    ASSERT_TRUE(fork);
    EXPECT_EQ(fork->status, 422) << size << fork->body;
  }
  // Signed by another key under the venue's name: 403. Another origin: 404.
  absl::StatusOr<ledger::Signer> stranger = ledger::Signer::LoadOrCreate(dir_.File("stranger.key"));
  ASSERT_TRUE(stranger.ok());
  {
    const std::string text = *ledger::FormatCheckpointBody({kOrigin, 4, Sha256("x"), {}});
    const std::string n =
        *ledger::FormatSignedNote({text, {*ledger::SignNoteText(text, *stranger, kOrigin)}});
    httplib::Result r =
        Witness()->Post("/add-checkpoint", absl::StrCat("old 3\n\n", n), "text/plain");
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 403) << r->body;
    const std::string t2 = *ledger::FormatCheckpointBody({"elsewhere.test/x", 1, Sha256("x"), {}});
    const std::string n2 =
        *ledger::FormatSignedNote({t2, {*ledger::SignNoteText(t2, *stranger, "elsewhere.test/x")}});
    r = Witness()->Post("/add-checkpoint", absl::StrCat("old 0\n\n", n2), "text/plain");
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 404) << r->body;
  }
  // Nothing of it was cosigned: the witness still holds the true size 3.
  EXPECT_EQ(ledger::ParseSignedNote(Latest())->text, latest->text);

  // Restarted, the witness still holds size 3 and its root.
  federation_->Stop();
  StartFederation();
  httplib::Result again =
      Witness()->Post("/add-checkpoint", absl::StrCat("old 0\n\n", Latest()), "text/plain");
  ASSERT_TRUE(again);
  EXPECT_EQ(again->status, 409);
  EXPECT_EQ(again->body, "3\n");
  EXPECT_EQ(ledger::ParseSignedNote(Latest())->text, latest->text);
}

}  // namespace
}  // namespace arbiter::testing
