// The witness (ledger/witness.h) against the text of C2SP tlog-witness and
// tlog-cosignature: each answer it must give, the cosignature's bytes
// (key id, timestamped message) computed here independently, and its state
// surviving a reopen.
#include "ledger/witness.h"

#include <memory>
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "ledger/cosignature.h"
#include "ledger/hash.h"
#include "ledger/merkle.h"
#include "ledger/note_key.h"
#include "ledger/signed_note.h"
#include "ledger/signer.h"
#include "ledger/tlog_checkpoint.h"
#include "ledger/witness_state.h"
#include "proto/canonical/sha256.h"
#include "tests/support/temp_dir.h"

namespace arbiter::ledger {
namespace {

constexpr char kOrigin[] = "venue.example/tokyo-2026";

// A log of `n` leaves signed with `key`: its checkpoint notes and proofs.
class FakeLog {
 public:
  FakeLog(Signer key, std::string name, std::string salt = "")
      : key_(std::move(key)), name_(std::move(name)), salt_(std::move(salt)) {}
  void Grow(int n) {
    for (int i = 0; i < n; ++i) tree_.Append(LeafHash(absl::StrCat(salt_, "event ", tree_.size())));
  }
  uint64_t size() const { return tree_.size(); }
  std::string Text(uint64_t size) const {
    CheckpointBody body{kOrigin, size, *tree_.Root(size), {}};
    return *FormatCheckpointBody(body);
  }
  std::string Note(uint64_t size) const {
    const std::string text = Text(size);
    return *FormatSignedNote(SignedNote{text, {*SignNoteText(text, key_, name_)}});
  }
  std::string Request(uint64_t old_size, uint64_t size) const {
    std::string body = absl::StrCat("old ", old_size, "\n");
    if (old_size > 0 && old_size < size) {
      const std::vector<Hash> proof = tree_.ConsistencyProof(old_size, size).value();
      for (const Hash& h : proof) {
        absl::StrAppend(&body, absl::Base64Escape(AsBytes(h)), "\n");
      }
    }
    return absl::StrCat(body, "\n", Note(size));
  }
  NoteVerifierKey VerifierKey() const {
    return *ParseVerifierKey(
        *FormatVerifierKey(name_, *RawEd25519PublicKey(key_.public_key_der())));
  }

 private:
  Signer key_;
  std::string name_;
  std::string salt_;
  MerkleTree tree_;
};

class WitnessTest : public ::testing::Test {
 protected:
  void SetUp() override {
    log_ = std::make_unique<FakeLog>(*Signer::LoadOrCreate(dir_.File("log.key")), kOrigin);
    log_->Grow(10);
    Open();
  }
  void Open() {
    witness_ = std::make_unique<Witness>(
        Cosigner("federation.example/w1", *Signer::LoadOrCreate(dir_.File("witness.key"))),
        Witness::Logs{{kOrigin, {log_->VerifierKey()}}}, *WitnessState::Open(dir_.File("state")));
  }
  // The cosignature line a 200 answer holds, checked under the witness's
  // published key.
  void ExpectCosigned(const WitnessAnswer& a, uint64_t size) {
    ASSERT_EQ(a.status, 200) << a.body;
    const std::string text = log_->Text(size);
    absl::StatusOr<SignedNote> note = ParseSignedNote(absl::StrCat(text, "\n", a.body));
    ASSERT_TRUE(note.ok()) << note.status() << a.body;
    ASSERT_EQ(note->signatures.size(), 1u);
    absl::StatusOr<CosignatureVerifier> v =
        CosignatureVerifier::FromVerifierKey(witness_->cosigner().VerifierKey());
    ASSERT_TRUE(v.ok()) << v.status();
    EXPECT_TRUE(v->Verify(text, note->signatures[0]).ok());
  }

  arbiter::testing::TempDir dir_{"witness-test"};
  std::unique_ptr<FakeLog> log_;
  std::unique_ptr<Witness> witness_;
};

TEST_F(WitnessTest, CosignsAFirstCheckpointThenAConsistentOne) {
  ExpectCosigned(witness_->AddCheckpoint(log_->Request(0, 10)), 10);
  log_->Grow(7);
  ExpectCosigned(witness_->AddCheckpoint(log_->Request(10, 17)), 17);
  // The monitoring read: the latest cosigned note, both signatures on it.
  std::optional<std::string> latest = witness_->LatestCheckpoint(Sha256Hex(kOrigin));
  ASSERT_TRUE(latest.has_value());
  absl::StatusOr<SignedNote> note = ParseSignedNote(*latest);
  ASSERT_TRUE(note.ok()) << note.status();
  EXPECT_EQ(note->text, log_->Text(17));
  EXPECT_EQ(note->signatures.size(), 2u);
}

TEST_F(WitnessTest, AStaleOldSizeIs409WithTheSizeItHolds) {
  ExpectCosigned(witness_->AddCheckpoint(log_->Request(0, 10)), 10);
  log_->Grow(5);
  for (uint64_t old : {0, 4}) {
    WitnessAnswer a = witness_->AddCheckpoint(log_->Request(old, 15));
    EXPECT_EQ(a.status, 409) << old;
    EXPECT_EQ(a.content_type, "text/x.tlog.size");
    EXPECT_EQ(a.body, "10\n");
  }
}

TEST_F(WitnessTest, AForkOfTheSameSizeOrABadProofIsRefused) {
  ExpectCosigned(witness_->AddCheckpoint(log_->Request(0, 10)), 10);
  // The same key signs another history of 10 (and of 12) leaves.
  FakeLog fork(*Signer::LoadOrCreate(dir_.File("log.key")), kOrigin, "forged ");
  fork.Grow(12);
  EXPECT_EQ(witness_->AddCheckpoint(fork.Request(10, 10)).status, 422);
  EXPECT_EQ(witness_->AddCheckpoint(fork.Request(10, 12)).status, 422);
  // Nothing was recorded: the true log goes on from 10.
  log_->Grow(2);
  ExpectCosigned(witness_->AddCheckpoint(log_->Request(10, 12)), 12);
}

TEST_F(WitnessTest, RefusalsHaveTheirStatuses) {
  // Unknown origin: 404.
  FakeLog other(*Signer::LoadOrCreate(dir_.File("other.key")), "elsewhere.example/log");
  other.Grow(3);
  std::string req = other.Request(0, 3);
  // (rename the origin line so that only the origin differs)
  EXPECT_EQ(
      witness_->AddCheckpoint(absl::StrReplaceAll(req, {{kOrigin, "elsewhere.example/x"}})).status,
      404);
  // Signed by an untrusted key under the trusted name: 403.
  FakeLog impostor(*Signer::LoadOrCreate(dir_.File("impostor.key")), kOrigin);
  impostor.Grow(3);
  EXPECT_EQ(witness_->AddCheckpoint(impostor.Request(0, 3)).status, 403);
  // A trusted key's line whose signature fails: 403.
  std::string tampered = log_->Request(0, 10);
  const size_t sig = tampered.rfind(' ') + 30;  // in the signature, past the key id
  tampered[sig] = tampered[sig] == 'A' ? 'B' : 'A';
  EXPECT_EQ(witness_->AddCheckpoint(tampered).status, 403);
  // Old size above the checkpoint's: 400; no empty line: 400.
  EXPECT_EQ(witness_->AddCheckpoint(log_->Request(11, 10)).status, 400);
  EXPECT_EQ(witness_->AddCheckpoint("old 0\n" + log_->Note(10)).status, 400);
  // A proof from size 0: 422.
  std::string with_proof = log_->Request(0, 10);
  with_proof.insert(6, absl::StrCat(absl::Base64Escape(AsBytes(EmptyRoot())), "\n"));
  EXPECT_EQ(witness_->AddCheckpoint(with_proof).status, 422);
  // None of these was cosigned.
  EXPECT_FALSE(witness_->LatestCheckpoint(Sha256Hex(kOrigin)).has_value());
}

TEST_F(WitnessTest, ItsStateSurvivesAReopen) {
  ExpectCosigned(witness_->AddCheckpoint(log_->Request(0, 10)), 10);
  witness_.reset();
  Open();
  WitnessAnswer a = witness_->AddCheckpoint(log_->Request(0, 10));
  EXPECT_EQ(a.status, 409);
  EXPECT_EQ(a.body, "10\n");
  log_->Grow(1);
  ExpectCosigned(witness_->AddCheckpoint(log_->Request(10, 11)), 11);
}

// tlog-cosignature's bytes, computed here from the specification's text.
TEST(CosignatureTest, KeyIdAndSignedMessageAreTheSpecifications) {
  arbiter::testing::TempDir dir("cosignature-test");
  Signer key = *Signer::LoadOrCreate(dir.File("k"));
  const std::string raw = *RawEd25519PublicKey(key.public_key_der());
  Cosigner cosigner("witness.example/w1", *Signer::LoadOrCreate(dir.File("k")));
  // vkey: name + hex(SHA-256(name || "\n" || 0x04 || key)[:4]) + base64(0x04 || key)
  const std::string id =
      ToHex(AsBytes(Sha256(absl::StrCat("witness.example/w1\n", std::string(1, '\x04'), raw)))
                .substr(0, 4));
  EXPECT_EQ(cosigner.VerifierKey(),
            absl::StrCat("witness.example/w1+", id, "+", absl::Base64Escape("\x04" + raw)));
  const std::string text = "example.com/log\n5\n" + absl::Base64Escape(std::string(32, 'r')) + "\n";
  absl::StatusOr<std::string> line =
      cosigner.CosignatureLine(text, absl::FromUnixSeconds(1679315147));
  ASSERT_TRUE(line.ok()) << line.status();
  ASSERT_TRUE(absl::StartsWith(*line, "\xE2\x80\x94 witness.example/w1 "));
  std::string bytes;
  ASSERT_TRUE(absl::Base64Unescape(
      line->substr(line->rfind(' ') + 1, line->size() - line->rfind(' ') - 2), &bytes));
  ASSERT_EQ(bytes.size(), 4u + 8u + 64u);
  EXPECT_EQ(ToHex(bytes.substr(0, 4)), id);
  EXPECT_EQ(ToHex(bytes.substr(4, 8)), "00000000641850cb");  // 1679315147, big-endian
  const std::string message = "cosignature/v1\ntime 1679315147\n" + text;
  EXPECT_TRUE(VerifySignature(key.public_key_der(), message, bytes.substr(12)).ok());
  // A log key (type 0x01) is not a cosignature key.
  EXPECT_FALSE(
      CosignatureVerifier::FromVerifierKey(*FormatVerifierKey("witness.example/w1", raw)).ok());
}

}  // namespace
}  // namespace arbiter::ledger
