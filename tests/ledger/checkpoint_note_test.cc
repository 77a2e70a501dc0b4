// Checkpoints as C2SP signed notes: new checkpoints carry a note that the
// published verifier key (ledger.vkey) opens; the log's origin is fixed
// once chosen; and a ledger written by the code before notes
// (tests/data/ledger-v0, made by `arbiter serve` + `arbiter record` of
// cli/examples/tournament-round3.jsonl at commit 12e26cf) keeps verifying,
// is given notes without any event, checkpoint row or root changing, and
// then verifies against its verifier key.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "adjudicator/judge/adjudicator_judge.h"
#include "gtest/gtest.h"
#include "ledger/audit.h"
#include "ledger/checkpoint.h"
#include "ledger/internal/checkpoint_note.h"
#include "ledger/internal/log_origin.h"
#include "ledger/ledger.h"
#include "ledger/note_key.h"
#include "ledger/server_tables.h"
#include "ledger/signed_note.h"
#include "ledger/sqlite/log_reader.h"
#include "ledger/store.h"
#include "tests/support/arbiter_process.h"
#include "tests/support/event_lines.h"
#include "tests/support/paths.h"
#include "tests/support/temp_dir.h"

namespace arbiter::ledger {
namespace {

using testing::ProcessResult;

std::string Slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

NoteVerifierKey VkeyIn(const std::string& dir) {
  std::string line = Slurp(dir + "/ledger.vkey");
  EXPECT_FALSE(line.empty());
  if (!line.empty() && line.back() == '\n') line.pop_back();
  absl::StatusOr<NoteVerifierKey> key = ParseVerifierKey(line);
  EXPECT_TRUE(key.ok()) << key.status();
  return key.ok() ? *key : NoteVerifierKey{};
}

absl::StatusOr<std::unique_ptr<Ledger>> OpenLedger(const std::string& dir, Judge* judge,
                                                   const std::string& origin = "") {
  LedgerOptions o;
  o.dir = dir;
  o.judge = judge;
  o.log_origin = origin;
  return Ledger::Open(o);
}

// Appends a public scenario as game `game`.
void RecordScenario(Ledger& ledger, const std::string& scenario) {
  absl::StatusOr<std::vector<v1::Event>> events =
      testing::ReadEventLines(testing::TestDataPath("scenarios/public/" + scenario + ".jsonl"));
  ASSERT_TRUE(events.ok()) << events.status();
  ASSERT_TRUE(ledger
                  .AppendAndWait(AppendRequest::Game(scenario, ExpectedRevision::NoStream(),
                                                     *std::move(events)))
                  .ok());
}

TEST(CheckpointNoteTest, NewCheckpointsAreNotesTheVerifierKeyOpens) {
  testing::TempDir dir;
  AdjudicatorJudge judge;
  {
    auto ledger = OpenLedger(dir.path(), &judge, "venue.example/tokyo-2026");
    ASSERT_TRUE(ledger.ok()) << ledger.status();
    RecordScenario(**ledger, "phone-twice");
    EXPECT_EQ((*ledger)->identity().origin(), "venue.example/tokyo-2026");
    EXPECT_EQ((*ledger)->identity().VerifierKey() + "\n", Slurp(dir.File("ledger.vkey")));
  }
  // Kept in the database, not in a file beside it.
  EXPECT_FALSE(std::filesystem::exists(dir.File("ledger.origin")));
  {
    absl::StatusOr<std::unique_ptr<Store>> store = OpenStore(dir.path());
    ASSERT_TRUE(store.ok());
    absl::StatusOr<std::unique_ptr<ServerTables>> tables = (*store)->OpenServerTables(true);
    ASSERT_TRUE(tables.ok()) << tables.status();
    EXPECT_EQ((*tables)->Meta("log_origin").value(), "venue.example/tokyo-2026");
  }
  const NoteVerifierKey key = VkeyIn(dir.path());
  EXPECT_EQ(key.name, "venue.example/tokyo-2026");
  absl::StatusOr<LogReader> reader = LogReader::Open(dir.File("ledger.db"));
  ASSERT_TRUE(reader.ok());
  absl::StatusOr<std::vector<v1::Checkpoint>> cps = reader->Checkpoints();
  ASSERT_TRUE(cps.ok());
  ASSERT_FALSE(cps->empty());
  for (const v1::Checkpoint& c : *cps) {
    absl::StatusOr<CheckpointBody> body = OpenCheckpointNote(c.note(), key);
    ASSERT_TRUE(body.ok()) << body.status() << "\n" << c.note();
    EXPECT_EQ(body->tree_size, c.tree_size());
    EXPECT_EQ(AsBytes(body->root), c.root_hash());
    // tlog-checkpoint's three lines, then one signature line by the origin.
    EXPECT_EQ(c.note().rfind("venue.example/tokyo-2026\n", 0), 0u) << c.note();
  }

  // A note stating another root, even signed by the log's key and covered
  // by a valid protobuf signature, is refused.
  absl::StatusOr<Signer> signer = LoadSigningKey(dir.path());
  ASSERT_TRUE(signer.ok());
  v1::Checkpoint forged = cps->back();
  Hash other = LeafHash("not the root");
  forged.set_note(SignCheckpointNote(*signer, forged.tree_size(), other).value());
  forged.set_signature(signer->Sign(SignedBytes(forged)).value());
  absl::Status refused = VerifyCheckpoint(forged, signer->public_key_der());
  EXPECT_EQ(refused.code(), absl::StatusCode::kDataLoss) << refused;
  EXPECT_NE(refused.message().find("another size or root"), std::string::npos) << refused;
  EXPECT_TRUE(VerifyCheckpoint(cps->back(), signer->public_key_der()).ok());

  // The origin is fixed once chosen; an invalid one is refused.
  auto renamed = OpenLedger(dir.path(), &judge, "another-name");
  EXPECT_EQ(renamed.status().code(), absl::StatusCode::kFailedPrecondition) << renamed.status();
  testing::TempDir fresh;
  EXPECT_EQ(OpenLedger(fresh.path(), &judge, "two words").status().code(),
            absl::StatusCode::kInvalidArgument);
  auto kept = OpenLedger(dir.path(), &judge);
  ASSERT_TRUE(kept.ok()) << kept.status();
  EXPECT_EQ((*kept)->identity().origin(), "venue.example/tokyo-2026");
}

// A data folder of an earlier release kept its origin in ledger.origin: it
// keeps it, moved into the database once (issue 44.5), and a folder whose
// file names another log than its database's is refused by name.
TEST(CheckpointNoteTest, AnEarlierReleasesOriginFileMovesIntoTheDatabase) {
  testing::TempDir dir;
  AdjudicatorJudge judge;
  { std::ofstream(dir.File("ledger.origin")) << "venue.example/nagoya-2025\n"; }
  {
    auto ledger = OpenLedger(dir.path(), &judge);
    ASSERT_TRUE(ledger.ok()) << ledger.status();
    EXPECT_EQ((*ledger)->identity().origin(), "venue.example/nagoya-2025");
    RecordScenario(**ledger, "phone-twice");
  }
  EXPECT_FALSE(std::filesystem::exists(dir.File("ledger.origin"))) << "moved, not copied";
  auto kept = OpenLedger(dir.path(), &judge);
  ASSERT_TRUE(kept.ok()) << kept.status();
  EXPECT_EQ((*kept)->identity().origin(), "venue.example/nagoya-2025");
  kept->reset();
  { std::ofstream(dir.File("ledger.origin")) << "venue.example/elsewhere\n"; }
  auto clash = OpenLedger(dir.path(), &judge);
  EXPECT_EQ(clash.status().code(), absl::StatusCode::kFailedPrecondition) << clash.status();
  EXPECT_NE(clash.status().message().find("venue.example/elsewhere"), std::string::npos);
  EXPECT_NE(clash.status().message().find("venue.example/nagoya-2025"), std::string::npos);
}

// The audit checks each checkpoint's note once, with the key decoded once
// for all (VerifyCheckpoint with the origin): a note whose own signature
// does not verify is refused even under a valid protobuf signature, and so
// is a note naming another log than the verifier key's origin.
TEST(CheckpointNoteTest, TheAuditRefusesABadNoteSignatureAndAnotherOrigin) {
  testing::TempDir dir;
  AdjudicatorJudge judge;
  {
    auto ledger = OpenLedger(dir.path(), &judge, "venue.example/osaka-2026");
    ASSERT_TRUE(ledger.ok()) << ledger.status();
    RecordScenario(**ledger, "phone-twice");
  }
  auto audit = [&](const std::string& origin) {
    AuditOptions options;
    options.log_origin = origin;
    absl::StatusOr<AuditReport> report = (*OpenStore(dir.File("ledger.db")))->Audit(options);
    EXPECT_TRUE(report.ok()) << report.status();
    return report.ok() ? *report : AuditReport{};
  };
  ASSERT_TRUE(audit("venue.example/osaka-2026").intact);
  AuditReport other = audit("venue.example/kobe-2026");
  EXPECT_FALSE(other.intact);
  EXPECT_NE(other.why.find("names the log 'venue.example/osaka-2026'"), std::string::npos)
      << other.why;

  // The last checkpoint's note signature altered in its last byte, the
  // protobuf signature made again over it: only the note's check can tell.
  absl::StatusOr<Signer> signer = LoadSigningKey(dir.path());
  ASSERT_TRUE(signer.ok());
  absl::StatusOr<LogReader> reader = LogReader::Open(dir.File("ledger.db"));
  ASSERT_TRUE(reader.ok());
  absl::StatusOr<std::vector<v1::Checkpoint>> cps = reader->Checkpoints();
  ASSERT_TRUE(cps.ok() && !cps->empty());
  v1::Checkpoint forged = cps->back();
  absl::StatusOr<SignedNote> note = ParseSignedNote(forged.note());
  ASSERT_TRUE(note.ok()) << note.status();
  note->signatures[0].signature.back() ^= 1;
  forged.set_note(FormatSignedNote(*note).value());
  forged.set_signature(signer->Sign(SignedBytes(forged)).value());
  absl::Status refused = VerifyCheckpoint(forged, signer->public_key_der());
  EXPECT_EQ(refused.code(), absl::StatusCode::kDataLoss) << refused;
  EXPECT_NE(refused.message().find("is not valid"), std::string::npos) << refused;
  absl::StatusOr<PublicKey> key = PublicKey::FromDer(signer->public_key_der());
  ASSERT_TRUE(key.ok());
  const Hash key_id = Sha256(signer->public_key_der());
  EXPECT_EQ(VerifyCheckpoint(forged, *key, key_id, "").code(), absl::StatusCode::kDataLoss);
  EXPECT_TRUE(VerifyCheckpoint(cps->back(), *key, key_id, "venue.example/osaka-2026").ok());
  EXPECT_EQ(VerifyCheckpoint(cps->back(), *key, key_id, "venue.example/kobe-2026").code(),
            absl::StatusCode::kDataLoss);
}

TEST(CheckpointNoteTest, DefaultOriginIsTheHostAndDataFolder) {
  testing::TempDir dir;
  AdjudicatorJudge judge;
  auto ledger = OpenLedger(dir.path(), &judge);
  ASSERT_TRUE(ledger.ok());
  const std::string& origin = (*ledger)->identity().origin();
  EXPECT_TRUE(IsValidNoteName(origin)) << origin;
  const std::string canonical = std::filesystem::canonical(dir.path()).string();
  EXPECT_TRUE(origin.size() > canonical.size() &&
              (origin.compare(origin.size() - canonical.size(), canonical.size(), canonical) == 0 ||
               origin.find(dir.path()) != std::string::npos))
      << origin;
  EXPECT_EQ(DefaultLogOrigin("postgresql://arbiter:secret@db.example:5432/federation?sslmode=x"),
            "db.example:5432/federation");
}

std::vector<std::string> Rows(LogReader& reader) {
  std::vector<std::string> rows;
  const std::vector<v1::LedgerEntry> entries = reader.ReadLog(0, 100000).value();
  for (const v1::LedgerEntry& e : entries) rows.push_back(e.SerializeAsString());
  const std::vector<v1::Checkpoint> cps = reader.Checkpoints().value();
  for (const v1::Checkpoint& c : cps) rows.push_back(c.SerializeAsString());
  return rows;
}

TEST(CheckpointNoteTest, ALedgerFromBeforeNotesKeepsItsRowsAndGainsNotes) {
  testing::TempDir dir;
  for (const char* f : {"ledger.db", "ledger.key", "ledger.pub"}) {
    std::filesystem::copy_file(testing::TestDataPath(std::string("ledger-v0/") + f), dir.File(f));
  }
  std::vector<std::string> before;
  v1::Checkpoint old_latest;
  {
    absl::StatusOr<LogReader> reader = LogReader::Open(dir.File("ledger.db"));
    ASSERT_TRUE(reader.ok()) << reader.status();
    before = Rows(*reader);
    std::vector<v1::Checkpoint> cps = reader->Checkpoints().value();
    ASSERT_FALSE(cps.empty());
    for (const v1::Checkpoint& c : cps) EXPECT_TRUE(c.note().empty());
    old_latest = cps.back();
    EXPECT_EQ(old_latest.tree_size(), 156u);
  }
  // The code of today reads it as before.
  ProcessResult old_ok =
      testing::RunArbiter({"verify", "--db", dir.path()}, {.merge_stderr = true});
  EXPECT_EQ(old_ok.exit, 0) << old_ok.out;

  AdjudicatorJudge judge;
  {
    auto ledger = OpenLedger(dir.path(), &judge, "club.example/old-venue");
    ASSERT_TRUE(ledger.ok()) << ledger.status();
    // The latest old checkpoint, given its note: the same size and root.
    absl::StatusOr<std::string> note = (*ledger)->identity().CheckpointNote(old_latest);
    ASSERT_TRUE(note.ok()) << note.status();
    EXPECT_EQ((*ledger)->identity().CheckpointNote(old_latest).value(), *note);  // deterministic
    const NoteVerifierKey key = VkeyIn(dir.path());
    absl::StatusOr<CheckpointBody> body = OpenCheckpointNote(*note, key);
    ASSERT_TRUE(body.ok()) << body.status();
    EXPECT_EQ(body->tree_size, 156u);
    EXPECT_EQ(AsBytes(body->root), old_latest.root_hash());
    RecordScenario(**ledger, "phone-twice");
  }
  {
    absl::StatusOr<LogReader> reader = LogReader::Open(dir.File("ledger.db"));
    ASSERT_TRUE(reader.ok());
    std::vector<std::string> after = Rows(*reader);
    // Every old event and checkpoint row is byte for byte what it was.
    std::vector<v1::LedgerEntry> entries = reader->ReadLog(0, 100000).value();
    ASSERT_GT(entries.size(), 156u);
    for (size_t i = 0; i < 156; ++i) EXPECT_EQ(entries[i].SerializeAsString(), before[i]);
    std::vector<v1::Checkpoint> cps = reader->Checkpoints().value();
    const size_t old_count = before.size() - 156;
    ASSERT_GT(cps.size(), old_count);
    for (size_t i = 0; i < old_count; ++i) EXPECT_EQ(cps[i].SerializeAsString(), before[156 + i]);
    EXPECT_FALSE(cps.back().note().empty());
    EXPECT_TRUE(OpenCheckpointNote(cps.back().note(), VkeyIn(dir.path())).ok());
  }
  // Offline, against the published verifier key: intact.
  ProcessResult by_vkey = testing::RunArbiter(
      {"verify", "--db", dir.path(), "--pubkey", dir.File("ledger.vkey")}, {.merge_stderr = true});
  EXPECT_EQ(by_vkey.exit, 0) << by_vkey.out;
  EXPECT_NE(by_vkey.out.find("verifier key of log 'club.example/old-venue'"), std::string::npos)
      << by_vkey.out;
  // The same key under another origin is another log: refused.
  absl::StatusOr<Signer> signer = LoadSigningKey(dir.path());
  ASSERT_TRUE(signer.ok());
  {
    std::ofstream out(dir.File("other.vkey"));
    out << FormatVerifierKey("club.example/elsewhere",
                             RawEd25519PublicKey(signer->public_key_der()).value())
               .value()
        << "\n";
  }
  ProcessResult renamed = testing::RunArbiter(
      {"verify", "--db", dir.path(), "--pubkey", dir.File("other.vkey")}, {.merge_stderr = true});
  EXPECT_EQ(renamed.exit, 1) << renamed.out;
  EXPECT_NE(renamed.out.find("not 'club.example/elsewhere'"), std::string::npos) << renamed.out;
  {
    std::ofstream out(dir.File("bad.vkey"));
    out << "club.example/old-venue+00000000+AAAA\n";
  }
  EXPECT_EQ(
      testing::RunArbiter({"verify", "--db", dir.path(), "--pubkey", dir.File("bad.vkey")}).exit,
      2);
}

}  // namespace
}  // namespace arbiter::ledger
