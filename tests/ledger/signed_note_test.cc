// Signed notes, verifier keys and checkpoint bodies against the published
// examples of Go's golang.org/x/mod/sumdb/note and sumdb/tlog (their
// note_test.go / example_test.go): reproducing those bytes proves the format.
#include "ledger/signed_note.h"

#include <string>

#include "absl/strings/escaping.h"
#include "gtest/gtest.h"
#include "ledger/hash.h"
#include "ledger/note_key.h"
#include "ledger/signer.h"
#include "ledger/tlog_checkpoint.h"

namespace arbiter::ledger {
namespace {

// Go's example key (note_test.go TestSign): "PRIVATE+KEY+PeterNeumann+c74f20a3+"
// then base64(0x01 || 32-byte Ed25519 seed).
constexpr char kGoSeed[] = "AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz";
constexpr char kGoVkey[] = "PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW";
constexpr char kGoText[] =
    "If you think cryptography is the answer to your problem,\n"
    "then you don't know what your problem is.\n";
constexpr char kGoSigLine[] =
    "\xE2\x80\x94 PeterNeumann "
    "x08go/ZJkuBS9UG/"
    "SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n";

Signer GoSigner() {
  std::string raw;
  EXPECT_TRUE(absl::Base64Unescape(kGoSeed, &raw));
  EXPECT_EQ(raw.size(), 33u);
  absl::StatusOr<Signer> s = Signer::FromEd25519Seed(raw.substr(1));
  EXPECT_TRUE(s.ok()) << s.status();
  return *std::move(s);
}

std::string GoNote() { return std::string(kGoText) + "\n" + kGoSigLine; }

TEST(SignedNoteTest, ReproducesGosSignedExampleByteForByte) {
  Signer signer = GoSigner();
  absl::StatusOr<NoteSignature> sig = SignNoteText(kGoText, signer, "PeterNeumann");
  ASSERT_TRUE(sig.ok()) << sig.status();
  EXPECT_EQ(sig->key_id, 0xc74f20a3u);
  absl::StatusOr<std::string> note = FormatSignedNote({kGoText, {*sig}});
  ASSERT_TRUE(note.ok()) << note.status();
  EXPECT_EQ(*note, GoNote());
}

TEST(SignedNoteTest, VerifierKeyIsGosFromTheSameKey) {
  Signer signer = GoSigner();
  absl::StatusOr<std::string> raw = RawEd25519PublicKey(signer.public_key_der());
  ASSERT_TRUE(raw.ok());
  absl::StatusOr<std::string> vkey = FormatVerifierKey("PeterNeumann", *raw);
  ASSERT_TRUE(vkey.ok());
  EXPECT_EQ(*vkey, kGoVkey);
  absl::StatusOr<NoteVerifierKey> parsed = ParseVerifierKey(kGoVkey);
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_EQ(parsed->name, "PeterNeumann");
  EXPECT_EQ(parsed->key_id, 0xc74f20a3u);
  EXPECT_EQ(parsed->public_key, *raw);
  EXPECT_EQ(parsed->Der(), signer.public_key_der());
}

TEST(SignedNoteTest, RefusesMalformedVerifierKeys) {
  for (const char* bad : {
           "PeterNeumann+c74f20a4+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW",  // wrong id
           "PeterNeumann+C74F20A3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW",  // upper hex
           "Peter+Neumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW",
           "PeterNeumann+c74f20a3+AhpczQcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW",  // type 2
           "PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10",    // short
           "PeterNeumann+c74f20a3",
       }) {
    EXPECT_EQ(ParseVerifierKey(bad).status().code(), absl::StatusCode::kInvalidArgument) << bad;
  }
}

TEST(SignedNoteTest, OpensGosNoteAndRefusesAlteredOrForeignOnes) {
  absl::StatusOr<NoteVerifierKey> key = ParseVerifierKey(kGoVkey);
  ASSERT_TRUE(key.ok());
  absl::StatusOr<SignedNote> note = OpenSignedNote(GoNote(), *key);
  ASSERT_TRUE(note.ok()) << note.status();
  EXPECT_EQ(note->text, kGoText);
  ASSERT_EQ(note->signatures.size(), 1u);
  EXPECT_EQ(note->signatures[0].signature.size(), 64u);

  std::string altered = GoNote();
  altered[3] = 'Y';  // "If yYu think..."
  EXPECT_EQ(OpenSignedNote(altered, *key).status().code(), absl::StatusCode::kDataLoss);

  // Another key of the same name: its id differs, so no line names it.
  Signer other = Signer::FromEd25519Seed(std::string(32, '\x07')).value();
  NoteVerifierKey wrong{
      "PeterNeumann",
      NoteKeyId("PeterNeumann", kNoteEd25519, RawEd25519PublicKey(other.public_key_der()).value()),
      RawEd25519PublicKey(other.public_key_der()).value()};
  EXPECT_EQ(OpenSignedNote(GoNote(), wrong).status().code(), absl::StatusCode::kNotFound);
  // A forged line claiming Peter's id with another key's signature.
  NoteSignature forged = SignNoteText(kGoText, other, "PeterNeumann").value();
  forged.key_id = key->key_id;
  EXPECT_EQ(OpenSignedNote(FormatSignedNote({kGoText, {forged}}).value(), *key).status().code(),
            absl::StatusCode::kDataLoss);
}

TEST(SignedNoteTest, RefusesGosMalformedNotes) {
  const std::string text = kGoText;
  const std::string sig = kGoSigLine;
  for (const std::string& bad : {
           text,
           text + "\n",
           text + "\n" + sig.substr(0, sig.size() - 1),
           "\x01" + text + "\n" + sig,
           "\xff" + text + "\n" + sig,
           text + "\n" +
               "\xE2\x80\x94 Bad Name "
               "x08go/ZJkuBS9UG/"
               "SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=",
           text + "\n" + sig + "Unexpected line.\n",
       }) {
    EXPECT_EQ(ParseSignedNote(bad).status().code(), absl::StatusCode::kInvalidArgument) << bad;
  }
  std::string many = text + "\n";
  for (int i = 0; i < 101; ++i) many += sig;
  EXPECT_FALSE(ParseSignedNote(many).ok());
  EXPECT_FALSE(SignNoteText("no final newline", GoSigner(), "PeterNeumann").ok());
  EXPECT_FALSE(SignNoteText(text, GoSigner(), "Peter Neumann").ok());
}

TEST(TlogCheckpointTest, FormatsAndParsesGosTreeNote) {
  // sumdb/tlog note_test.go TestFormatTree: RecordHash is RFC 6962's leaf hash.
  const std::string golden =
      "go.sum database tree\n123456789012\nTszzRgjTG6xce+z2AG31kAXYKBgQVtCSCE40HmuwBb0=\n";
  CheckpointBody body{"go.sum database tree", 123456789012, LeafHash("hello world"), {}};
  EXPECT_EQ(FormatCheckpointBody(body).value(), golden);
  absl::StatusOr<CheckpointBody> parsed = ParseCheckpointBody(golden);
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_EQ(parsed->origin, body.origin);
  EXPECT_EQ(parsed->tree_size, body.tree_size);
  EXPECT_EQ(parsed->root, body.root);
  EXPECT_TRUE(parsed->extensions.empty());

  body.extensions = {"ext one", "ext two"};
  parsed = ParseCheckpointBody(FormatCheckpointBody(body).value());
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(parsed->extensions, body.extensions);

  for (const std::string& bad : {
           std::string(
               "go.sum database tree\n0xabcdef\nTszzRgjTG6xce+z2AG31kAXYKBgQVtCSCE40HmuwBb0=\n"),
           std::string("go.sum database "
                       "tree\n123456789012\nTszzRgjTG6xce+z2AG31kAXYKBgQVtCSCE40HmuwBTOOBIG=\n"),
           std::string(
               "go.sum database tree\n0123\nTszzRgjTG6xce+z2AG31kAXYKBgQVtCSCE40HmuwBb0=\n"),
           std::string("\n1\nTszzRgjTG6xce+z2AG31kAXYKBgQVtCSCE40HmuwBb0=\n"),
           std::string("o\n1\nTszzRgjTG6xce+z2AG31kAXYKBgQVtCSCE40HmuwBb0=\n\n"),
           std::string("o\n1\nTszzRgjTG6xce+z2AG31kAXYKBgQVtCSCE40HmuwBb0="),
       }) {
    EXPECT_EQ(ParseCheckpointBody(bad).status().code(), absl::StatusCode::kInvalidArgument) << bad;
  }
}

}  // namespace
}  // namespace arbiter::ledger
