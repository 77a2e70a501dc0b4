// Issue 33.3 from the outside: a federation's `arbiter serve --witness-key
// --witness-for` witnesses a venue's `arbiter serve --witness` (two
// processes on free loopback ports): the venue's checkpoints come back
// cosigned and `arbiter verify --witnesses 1` accepts them; a stale old
// size is 409 with the size the witness holds; a fork (another root for a
// size it cosigned, signed with the venue's own key) is refused and changes
// nothing; the witness's state survives its restart. The venue sends each
// checkpoint as it is committed, with no poll's delay.
#include <algorithm>
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "arbiter/v1/service.grpc.pb.h"
#include "google/protobuf/util/json_util.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "httplib.h"
#include "ledger/cosignature.h"
#include "ledger/note_key.h"
#include "ledger/signed_note.h"
#include "ledger/signer.h"
#include "ledger/tlog_checkpoint.h"
#include "proto/canonical/sha256.h"
#include "tests/support/arbiter_process.h"
#include "tests/support/event_lines.h"
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

// The sender follows the commit feed: with a checkpoint signed at every
// commit, each comes back cosigned a few milliseconds after its append is
// answered. A sender that looked every 200 ms would take most of that each
// time here, as each append follows the last cosignature at once.
TEST_F(WitnessServeTest, EachCheckpointIsSentAsSoonAsItIsCommitted) {
  auto venue = ServerProcess::Start(
      venue_dir_, {"--checkpoint-every", "1", "--sign-within", "0s", "--witness",
                   absl::StrCat("http://", federation_->console_address(), "=", witness_vkey_)});
  ASSERT_NE(venue, nullptr);
  auto stub = v1::Arbiter::NewStub(
      grpc::CreateChannel(venue->address(), grpc::InsecureChannelCredentials()));
  httplib::Client witness(absl::StrCat("http://", federation_->console_address()));
  const std::string monitor = absl::StrCat("/witness/", Sha256Hex(kOrigin), "/checkpoint");
  // The tree size of the witness's latest cosigned checkpoint (0: none).
  auto cosigned_size = [&]() -> uint64_t {
    httplib::Result r = witness.Get(monitor);
    if (!r || r->status != 200) return 0;
    const std::vector<std::string> lines = absl::StrSplit(r->body, '\n');
    uint64_t size = 0;
    return lines.size() > 1 && absl::SimpleAtoi(lines[1], &size) ? size : 0;
  };
  std::vector<absl::Duration> took;
  for (int i = 1; i <= 9; ++i) {
    grpc::ClientContext ctx;
    ctx.set_deadline(absl::ToChronoTime(absl::Now() + absl::Seconds(20)));
    v1::CreateGameRequest req;
    req.mutable_game()->set_game_id(absl::StrCat("prompt-", i));
    req.mutable_game()->set_board_size(19);
    req.mutable_game()->mutable_black()->set_name("Li Wei");
    req.mutable_game()->mutable_white()->set_name("Wang Fang");
    v1::Game game;
    const grpc::Status created = stub->CreateGame(&ctx, req, &game);
    ASSERT_TRUE(created.ok()) << created.error_message();
    const absl::Time appended = absl::Now();
    while (cosigned_size() < static_cast<uint64_t>(i)) {
      ASSERT_LT(absl::Now() - appended, absl::Seconds(20)) << i << venue->log();
      absl::SleepFor(absl::Milliseconds(2));
    }
    took.push_back(absl::Now() - appended);
  }
  std::vector<absl::Duration> sorted = took;
  std::sort(sorted.begin(), sorted.end());
  std::string all;
  for (absl::Duration d : took) absl::StrAppend(&all, absl::FormatDuration(d), " ");
  // The median, so that one slow fsync on a loaded machine does not decide.
  EXPECT_LT(sorted[sorted.size() / 2], absl::Milliseconds(100)) << all;
}

// Issue 33.4: a ruling's receipt, written by `export --receipt`, checked by
// `verify --receipt` with keys only; altered, it fails.
TEST_F(WitnessServeTest, AReceiptVerifiesOfflineAndFailsWhenAltered) {
  auto venue = ServerProcess::Start(
      venue_dir_, {"--http", "127.0.0.1:0", "--sign-within", "200ms", "--witness",
                   absl::StrCat("http://", federation_->console_address(), "=", witness_vkey_)});
  ASSERT_NE(venue, nullptr);
  ASSERT_FALSE(venue->console_address().empty());
  const ProcessResult recorded = RunCli({"record", "-"}, ClockFailureGame("r-1"), venue->address());
  ASSERT_EQ(recorded.exit, 0) << recorded.err;
  for (int i = 0; i < 100 && !absl::StrContains(VerifyWitnessed(1, witness_vkey_).out,
                                                "witnessed: checkpoint at size 4 ");
       ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  // The slip's QR code holds the receipt's URL, which serves it whole.
  httplib::Client console(absl::StrCat("http://", venue->console_address()));
  const std::string url =
      absl::StrCat("http://", venue->console_address(), "/games/r-1/rulings/1/receipt");
  httplib::Result slip = console.Get("/games/r-1/rulings/1/slip");
  ASSERT_TRUE(slip);
  EXPECT_TRUE(absl::StrContains(slip->body, absl::StrCat("<code class=\"receipt\">", url)))
      << slip->body;
  httplib::Result served = console.Get("/games/r-1/rulings/1/receipt");
  ASSERT_TRUE(served);
  ASSERT_EQ(served->status, 200) << served->body;
  WriteFile(dir_.File("served.tlog-proof"), served->body);
  const ProcessResult served_ok =
      RunArbiter({"verify", "--receipt", dir_.File("served.tlog-proof"), "--key",
                  venue_dir_ + "/ledger.vkey", "--witnesses", "1", "--witness", witness_vkey_});
  EXPECT_EQ(served_ok.exit, 0) << served_ok.out << served_ok.err;
  venue->Stop();
  const std::string receipt_path = dir_.File("r-1.tlog-proof");
  const ProcessResult exported =
      RunArbiter({"export", "r-1", "--db", venue_dir_, "--receipt", "1", "--out", receipt_path});
  ASSERT_EQ(exported.exit, 0) << exported.out << exported.err;
  const std::string receipt = ReadFile(receipt_path);
  ASSERT_TRUE(absl::StartsWith(receipt, "c2sp.org/tlog-proof@v1\nextra ")) << receipt;
  EXPECT_TRUE(absl::StrContains(receipt, "\nindex 3\n")) << receipt;
  EXPECT_TRUE(absl::StrContains(receipt, absl::StrCat("\n\xE2\x80\x94 ", kWitness, " ")))
      << receipt;

  auto verify = [&](const std::string& text, const std::string& key,
                    std::vector<std::string> witnesses, int k) {
    WriteFile(dir_.File("check.tlog-proof"), text);
    std::vector<std::string> args = {"verify", "--receipt", dir_.File("check.tlog-proof"), "--key",
                                     key};
    if (k > 0) {
      args.insert(args.end(), {"--witnesses", absl::StrCat(k)});
      for (const std::string& w : witnesses) args.insert(args.end(), {"--witness", w});
    }
    return RunArbiter(args);
  };
  const ProcessResult ok = verify(receipt, venue_dir_ + "/ledger.vkey", {witness_vkey_}, 1);
  EXPECT_EQ(ok.exit, 0) << ok.out << ok.err;
  EXPECT_TRUE(absl::StrContains(ok.out, "position 4 (clockMalfunction)")) << ok.out;
  EXPECT_TRUE(absl::StrContains(
      ok.out, absl::StrCat("cosigned by 1 of the 1 witness(es) required: ", kWitness)))
      << ok.out;

  // An altered entry: one byte of the event changed, re-encoded.
  {
    const size_t from = receipt.find("extra ") + 6, to = receipt.find('\n', from);
    std::string entry;
    ASSERT_TRUE(absl::Base64Unescape(receipt.substr(from, to - from), &entry));
    entry[entry.size() / 2] ^= 1;
    const std::string altered =
        receipt.substr(0, from) + absl::Base64Escape(entry) + receipt.substr(to);
    const ProcessResult r = verify(altered, venue_dir_ + "/ledger.vkey", {witness_vkey_}, 1);
    EXPECT_EQ(r.exit, 1) << r.out << r.err;
    EXPECT_TRUE(absl::StrContains(r.out, "NOT valid")) << r.out;
  }
  // An altered proof: the first hash replaced by another.
  {
    const size_t from = receipt.find("\nindex 3\n") + 9, to = receipt.find('\n', from);
    const std::string altered = receipt.substr(0, from) +
                                absl::Base64Escape(AsBytes(Sha256("not a node"))) +
                                receipt.substr(to);
    const ProcessResult r = verify(altered, venue_dir_ + "/ledger.vkey", {witness_vkey_}, 1);
    EXPECT_EQ(r.exit, 1) << r.out << r.err;
  }
  // A wrong key: another key under the venue's name.
  {
    absl::StatusOr<ledger::Signer> other = ledger::Signer::LoadOrCreate(dir_.File("other-log.key"));
    ASSERT_TRUE(other.ok());
    const std::string wrong =
        *ledger::FormatVerifierKey(kOrigin, *ledger::RawEd25519PublicKey(other->public_key_der()));
    const ProcessResult r = verify(receipt, wrong, {witness_vkey_}, 1);
    EXPECT_EQ(r.exit, 1) << r.out << r.err;
  }
  // A checkpoint note naming another log, signed by this log's key under
  // this log's name (issue 43.14): the signature holds and the tree is
  // this log's, but a receipt proves an entry of the log its note names,
  // and the verifier was asked about this one.
  {
    const size_t blank = receipt.find("\n\n") + 2;
    absl::StatusOr<ledger::SignedNote> note = ledger::ParseSignedNote(receipt.substr(blank));
    ASSERT_TRUE(note.ok()) << note.status();
    ASSERT_TRUE(absl::StartsWith(note->text, absl::StrCat(kOrigin, "\n"))) << note->text;
    ledger::SignedNote renamed;
    renamed.text = absl::StrCat("other.test/log", note->text.substr(note->text.find('\n')));
    absl::StatusOr<ledger::Signer> log_key =
        ledger::Signer::LoadOrCreate(venue_dir_ + "/ledger.key");
    ASSERT_TRUE(log_key.ok()) << log_key.status();
    absl::StatusOr<ledger::NoteSignature> signature =
        ledger::SignNoteText(renamed.text, *log_key, kOrigin);
    ASSERT_TRUE(signature.ok()) << signature.status();
    renamed.signatures = {*signature};
    absl::StatusOr<std::string> renamed_note = ledger::FormatSignedNote(renamed);
    ASSERT_TRUE(renamed_note.ok()) << renamed_note.status();
    // No witness policy: the log's key and the note's origin alone decide.
    const ProcessResult r =
        verify(receipt.substr(0, blank) + *renamed_note, venue_dir_ + "/ledger.vkey", {}, 0);
    EXPECT_EQ(r.exit, 1) << r.out << r.err;
    EXPECT_TRUE(absl::StrContains(r.out + r.err, "origin 'other.test/log'")) << r.out << r.err;
  }
  // Too few cosignatures: two required of two witnesses, one cosigned; or
  // the one cosignature cut from the receipt.
  {
    const ledger::Cosigner second("other.test/w2",
                                  *ledger::Signer::LoadOrCreate(dir_.File("w2.key")));
    const ProcessResult r =
        verify(receipt, venue_dir_ + "/ledger.vkey", {witness_vkey_, second.VerifierKey()}, 2);
    EXPECT_EQ(r.exit, 1) << r.out << r.err;
    const std::string cut =
        receipt.substr(0, receipt.find(absl::StrCat("\xE2\x80\x94 ", kWitness)));
    const ProcessResult r2 = verify(cut, venue_dir_ + "/ledger.vkey", {witness_vkey_}, 1);
    EXPECT_EQ(r2.exit, 1) << r2.out << r2.err;
    // Without a witness policy, the log's signature alone still holds.
    EXPECT_EQ(verify(cut, venue_dir_ + "/ledger.vkey", {}, 0).exit, 0);
  }
}

// Issue 45.1: the tiled log's /checkpoint is the ledger's latest, from its
// checkpoint index: a checkpoint signed is served by the next request (it
// was cached for a quarter second, so a client told of a new checkpoint
// could be served the one before).
TEST(TiledLogTest, ServesACheckpointAsSoonAsItIsSigned) {
  const TempDir temp("arbiter-tiles-latest");
  auto server = ServerProcess::Start(temp.path() + "/data", {"--http", "127.0.0.1:0"});
  ASSERT_NE(server, nullptr);
  auto channel = grpc::CreateChannel(server->address(), grpc::InsecureChannelCredentials());
  auto stub = v1::Arbiter::NewStub(channel);
  httplib::Client console(absl::StrCat("http://", server->console_address()));
  for (int g = 0; g < 3; ++g) {
    const std::string id = absl::StrCat("tiles-", g);
    v1::AppendEventsRequest req;
    req.set_game(absl::StrCat("games/", id));
    ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(
                    absl::StrCat(R"({"at": "2026-05-01T09:00:00Z", "gameCreated": {"gameId": ")",
                                 id, R"(", "ruleset": "cn-2002", "boardSize": 19,)",
                                 R"( "venue": "SAME_SITE"}})"),
                    req.add_events())
                    .ok());
    v1::AppendEventsResponse resp;
    grpc::ClientContext append_ctx;
    ASSERT_TRUE(stub->AppendEvents(&append_ctx, req, &resp).ok());
    v1::GetCheckpointRequest creq;
    creq.set_at_head(true);
    v1::SignedCheckpoint signed_cp;
    grpc::ClientContext cp_ctx;
    ASSERT_TRUE(stub->GetCheckpoint(&cp_ctx, creq, &signed_cp).ok());
    httplib::Result served = console.Get("/checkpoint");
    ASSERT_TRUE(served);
    ASSERT_EQ(served->status, 200) << served->body;
    const std::vector<std::string> lines = absl::StrSplit(served->body, '\n');
    ASSERT_GE(lines.size(), 2u) << served->body;
    EXPECT_EQ(lines[1], absl::StrCat(signed_cp.checkpoint().tree_size()))
        << "checkpoint " << g << ": /checkpoint served an older tree";
  }
}

}  // namespace
}  // namespace arbiter::testing
