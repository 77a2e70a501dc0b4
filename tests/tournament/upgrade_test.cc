// Issue 44.7: a data folder of the release before tournaments moved into the
// ledger (tests/data/upgrade, made by that release's make.sh: tournaments.db,
// tokens.db, a ledger of schema 2) opens under this one. Its tournament moves
// into the ledger once, recorded with the hash of the old rows' canonical
// dump (proto/DOMAIN.md, "Tournaments in the ledger"), recomputed here with
// sqlite3 and sha256sum as an auditor would; its standings are what the old
// server said; its token still works; `arbiter verify` checks the
// tournament, and a one-byte change to it fails naming it. Then the move
// itself: one cut off is finished, a second moves nothing, a clashing id is
// refused by name. The same upgrade for a PostgreSQL server's --state
// folder; several servers' folders merged into one store (state merge).
#include <sys/stat.h>

#include <filesystem>
#include <memory>
#include <regex>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "adjudicator/judge/adjudicator_judge.h"
#include "adjudicator/service/tournament_migration.h"
#include "arbiter/v1/tournament.pb.h"
#include "gtest/gtest.h"
#include "ledger/ledger.h"
#include "ledger/postgres/pg.h"
#include "ledger/sqlite.h"
#include "proto/canonical/canonical_bytes.h"
#include "tests/support/arbiter_process.h"
#include "tests/support/files.h"
#include "tests/support/paths.h"
#include "tests/support/pg_cluster.h"
#include "tests/support/subprocess.h"
#include "tests/support/temp_dir.h"

namespace arbiter {
namespace {

using testing::ProcessResult;
using testing::ReadFile;

constexpr const char* kFiles[] = {"ledger.db", "ledger.key",  "ledger.pub",    "ledger.origin",
                                  "tokens.db", "chief.token", "tournaments.db"};
constexpr uint64_t kOldRows = 8;  // tests/data/upgrade/README.md

// A copy of tests/data/upgrade (never written in place).
std::string CopyOldFolder(const testing::TempDir& dir) {
  const std::string data = dir.File("data");
  std::filesystem::create_directories(data);
  for (const char* f : kFiles) {
    std::filesystem::copy_file(testing::TestDataPath(absl::StrCat("upgrade/", f)),
                               absl::StrCat(data, "/", f));
  }
  return data;
}

// The dump's hash as proto/DOMAIN.md tells an auditor to compute it.
std::string DumpSha256(const std::string& file) {
  const ProcessResult r = testing::Run(
      {"/bin/sh", "-c",
       absl::StrCat("sqlite3 '", file,
                    "' \"SELECT tournament_id||' '||revision||' '||hex(event) FROM "
                    "tournament_events ORDER BY tournament_id, revision\" | sha256sum")});
  EXPECT_EQ(r.exit, 0) << r.err;
  return std::string(absl::StripSuffix(absl::StripTrailingAsciiWhitespace(r.out), "  -"));
}

// Tournament `id`'s stored events, in revision order, read from the
// ledger's file as an auditor would.
std::vector<v1::TournamentEvent> StoredEvents(const std::string& data, const std::string& id) {
  std::vector<v1::TournamentEvent> out;
  absl::StatusOr<ledger::Db> db = ledger::Db::OpenReadOnly(data + "/ledger.db");
  EXPECT_TRUE(db.ok()) << db.status();
  if (!db.ok()) return out;
  absl::StatusOr<ledger::Stmt> q =
      ledger::Stmt::Prepare(*db, "SELECT event FROM events WHERE game_id = ? ORDER BY revision");
  EXPECT_TRUE(q.ok()) << q.status();
  if (!q.ok()) return out;
  q->Bind(1, absl::StrCat("tournaments/", id));
  while (q->Step().value_or(false)) EXPECT_TRUE(out.emplace_back().ParseFromString(q->Text(0)));
  return out;
}

// One byte of the stored `created` of tournament `id` changed (its title's
// first letter), as an attacker with the file would, triggers dropped.
void ChangeOneByte(const std::string& data, const std::string& id) {
  absl::StatusOr<ledger::Db> db = ledger::Db::Open(data + "/ledger.db", SQLITE_OPEN_READWRITE);
  ASSERT_TRUE(db.ok()) << db.status();
  ASSERT_TRUE(db->Exec("DROP TRIGGER IF EXISTS events_no_UPDATE").ok());
  const std::string stream = absl::StrCat("tournaments/", id);
  std::string bytes;
  {
    absl::StatusOr<ledger::Stmt> q =
        ledger::Stmt::Prepare(*db, "SELECT event FROM events WHERE game_id = ? AND revision = 1");
    ASSERT_TRUE(q.ok()) << q.status();
    q->Bind(1, stream);
    ASSERT_TRUE(q->Step().value_or(false));
    bytes = q->Text(0);
  }
  const size_t at = bytes.find("Spring Open");
  ASSERT_NE(at, std::string::npos);
  bytes[at] = 's';
  absl::StatusOr<ledger::Stmt> u =
      ledger::Stmt::Prepare(*db, "UPDATE events SET event = ? WHERE game_id = ? AND revision = 1");
  ASSERT_TRUE(u.ok()) << u.status();
  ASSERT_TRUE(u->BindBlob(1, bytes).Bind(2, stream).Run().ok());
}

// A standings report's JSON without its totals and counted rounds, and
// without the byes listed since (none here: the old release had no field).
std::string WithoutTotals(const std::string& json) {
  static const std::regex kTotals(
      R"(,"totalScore":-?[0-9.]+|,"countedRounds":\[[0-9,]*\]|,"byes":\[\])");
  return std::regex_replace(json, kTotals, "");
}

bool Writable(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) != 0 || (st.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH)) != 0;
}

// The old chief arbiter's token, as $ARBITER_TOKEN.
std::vector<std::pair<std::string, std::string>> Chief() {
  return {{"ARBITER_TOKEN", std::string(absl::StripTrailingAsciiWhitespace(
                                ReadFile(testing::TestDataPath("upgrade/chief.token"))))}};
}

// What the upgraded server at `address` says of `spring`: the old release's
// standings, and the old chief arbiter's token (tokens.db) still writes.
void CheckStandingsAndToken(const std::string& address) {
  const std::vector<std::pair<std::string, std::string>> chief = Chief();
  {
    ProcessResult r =
        testing::RunCli({"tournament", "standings", "--json", "spring"}, "", address, chief);
    ASSERT_EQ(r.exit, 0) << r.err;
    // The same standings as the old release gave, but for what issue 43.6
    // corrected in the scoring since (DOMAIN.md §8): a total counts only the
    // rounds with a result, so the two players whose game is still in play
    // have 0, not -1, and each standing lists its counted rounds.
    const std::string old_json = ReadFile(testing::TestDataPath("upgrade/standings.json"));
    EXPECT_EQ(WithoutTotals(r.out), WithoutTotals(old_json));
    EXPECT_TRUE(absl::StrContains(old_json,
                                  "\"name\":\"Chen Jie\",\"points\":0,\"tieBreakA\":0,"
                                  "\"opponentsPoints\":0,\"totalScore\":-1,"));
    EXPECT_TRUE(absl::StrContains(r.out,
                                  "\"name\":\"Chen Jie\",\"points\":0,\"tieBreakA\":0,"
                                  "\"opponentsPoints\":0,\"totalScore\":0,"))
        << r.out;
    EXPECT_TRUE(absl::StrContains(r.out,
                                  "\"name\":\"Li Wei\",\"points\":2,\"tieBreakA\":0,"
                                  "\"opponentsPoints\":0,\"totalScore\":1,"))
        << r.out;
    r = testing::RunCli({"tournament", "standings", "spring"}, "", address, chief);
    ASSERT_EQ(r.exit, 0) << r.err;
    EXPECT_EQ(r.out, ReadFile(testing::TestDataPath("upgrade/standings.txt")));
    // The old chief arbiter's token (tokens.db) still writes; without it, no write.
    const std::vector<std::string> update = {
        "tournament", "update", "--player", "c", "--rank", "2D", "--reason", "re-rated", "spring"};
    r = testing::RunCli(update, "", address);
    EXPECT_NE(r.exit, 0) << r.out;
    r = testing::RunCli(update, "", address, chief);
    EXPECT_EQ(r.exit, 0) << r.err;
  }
}

// The old folder under a new `arbiter serve`, checked through the CLI.
TEST(UpgradeTest, TheOldFoldersTournamentMovesIntoTheLedgerOnce) {
  testing::TempDir dir("arbiter-upgrade");
  const std::string data = CopyOldFolder(dir);
  const std::string old_file = data + "/tournaments.db";
  const std::string old_dump = DumpSha256(old_file);
  ASSERT_EQ(old_dump.size(), 64u) << old_dump;
  {
    auto server = testing::ServerProcess::Start(data);
    ASSERT_NE(server, nullptr);
    CheckStandingsAndToken(server->address());
  }
  // The file's rows, then `migrated` with their dump's hash, then the update.
  std::vector<v1::TournamentEvent> stored = StoredEvents(data, "spring");
  ASSERT_EQ(stored.size(), kOldRows + 2);
  ASSERT_TRUE(stored[kOldRows].has_migrated());
  EXPECT_EQ(stored[kOldRows].migrated().source(), "tournaments.db");
  EXPECT_EQ(stored[kOldRows].migrated().dump_sha256(), old_dump);
  EXPECT_EQ(stored[kOldRows].migrated().dump_rows(), kOldRows);
  // The old file kept beside the ledger, read-only, its rows as they were.
  EXPECT_FALSE(Writable(old_file));
  EXPECT_EQ(DumpSha256(old_file), old_dump);

  // A second open moves nothing.
  {
    auto server = testing::ServerProcess::Start(data);
    ASSERT_NE(server, nullptr);
  }
  EXPECT_EQ(StoredEvents(data, "spring").size(), kOldRows + 2);

  ProcessResult r = testing::RunArbiter({"verify", "--db", data});
  EXPECT_EQ(r.exit, 0) << r.out << r.err;
  EXPECT_TRUE(absl::StrContains(r.out, "1 tournament(s) checked")) << r.out;

  ChangeOneByte(data, "spring");
  r = testing::RunArbiter({"verify", "--db", data});
  EXPECT_EQ(r.exit, 1) << r.out << r.err;
  EXPECT_TRUE(absl::StrContains(r.out, "NOT intact")) << r.out;
  EXPECT_TRUE(absl::StrContains(r.out, "tournament 'spring'")) << r.out;
}

// The events of tournament `id` in the ledger at `location`, through the
// ledger (either backend); none when it has no such tournament.
std::vector<v1::TournamentEvent> LedgerEvents(const std::string& location,
                                              const std::string& key_dir, const std::string& id) {
  AdjudicatorJudge judge;
  ledger::LedgerOptions o;
  o.dir = location;
  o.key_dir = key_dir;
  o.judge = &judge;
  absl::StatusOr<std::unique_ptr<ledger::Ledger>> l = ledger::Ledger::Open(o);
  EXPECT_TRUE(l.ok()) << l.status();
  if (!l.ok()) return {};
  absl::StatusOr<std::vector<v1::TournamentEvent>> events = (*l)->ReadTournament(id);
  EXPECT_TRUE(events.ok() || absl::IsNotFound(events.status())) << events.status();
  return events.value_or(std::vector<v1::TournamentEvent>());
}

// The old release's ledger as a federation kept it in PostgreSQL: the
// fixture's ledger.db rows (events, rulings, games, checkpoints, and each
// game's stream head), the same bytes, in the database at `uri`, whose
// tables a ledger opened with the folder's key in `key_dir` makes first.
// Each table's columns are typed by a letter: I integer, T text, K text or
// NULL, B bytes.
void CopyOldLedgerInto(const std::string& uri, const std::string& key_dir,
                       const std::string& ledger_db) {
  ASSERT_TRUE(LedgerEvents(uri, key_dir, "spring").empty());  // the tables made, empty
  absl::StatusOr<ledger::Db> db = ledger::Db::OpenReadOnly(ledger_db);
  ASSERT_TRUE(db.ok()) << db.status();
  absl::StatusOr<ledger::PgConn> pg = ledger::PgConn::Connect(uri);
  ASSERT_TRUE(pg.ok()) << pg.status();
  struct Table {
    const char* select;
    const char* insert;
    const char* columns;
  };
  const Table kTables[] = {
      {"SELECT position, game_id, revision, idempotency_key, event, leaf_hash FROM events",
       "INSERT INTO events VALUES ($1, $2, $3, $4, $5, $6)", "ITIKBB"},
      {"SELECT position, seq, ruling FROM rulings", "INSERT INTO rulings VALUES ($1, $2, $3)",
       "IIB"},
      {"SELECT game_id, first_position, rules_pin FROM games",
       "INSERT INTO games VALUES ($1, $2, $3)", "TIT"},
      {"SELECT tree_size, checkpoint FROM checkpoints", "INSERT INTO checkpoints VALUES ($1, $2)",
       "IB"},
      {"SELECT game_id, max(revision) FROM events GROUP BY game_id",
       "INSERT INTO streams VALUES ($1, $2)", "TI"},
  };
  for (const Table& t : kTables) {
    absl::StatusOr<ledger::Stmt> q = ledger::Stmt::Prepare(*db, t.select);
    ASSERT_TRUE(q.ok()) << q.status();
    while (q->Step().value_or(false)) {
      ledger::PgParams params;
      for (int col = 0; t.columns[col] != '\0'; ++col) {
        switch (t.columns[col]) {
          case 'I':
            params.Int(q->Int(col));
            break;
          case 'B':
            params.Bytes(q->Text(col));
            break;
          default:
            if (t.columns[col] == 'K' && q->IsNull(col)) {
              params.Null();
            } else {
              params.Text(q->Text(col));
            }
        }
      }
      absl::StatusOr<ledger::PgResult> r = pg->Exec(t.insert, params);
      ASSERT_TRUE(r.ok()) << t.insert << ": " << r.status();
    }
  }
}

// The same upgrade for a federation on PostgreSQL: the old folder is a
// server's --state (its tournaments.db, tokens.db and ledger.key), the
// ledger a PostgreSQL database holding the old release's games. A new
// server moves the tournament into the database once, with the old
// server's standings; its token still works; `verify` checks the
// tournament and catches a one-byte change to it.
TEST(UpgradeTest, OnPostgreSQLTheOldStateFoldersTournamentMovesIntoTheDatabaseOnce) {
  testing::TempDir dir("arbiter-upgrade-pg");
  const std::string state = CopyOldFolder(dir);
  const std::string old_file = state + "/tournaments.db";
  const std::string old_dump = DumpSha256(old_file);
  absl::StatusOr<std::string> uri = testing::SharedPgCluster().NewDatabase();
  ASSERT_TRUE(uri.ok()) << uri.status();
  CopyOldLedgerInto(*uri, state, state + "/ledger.db");
  {
    auto server = testing::ServerProcess::StartShared(*uri, state);
    ASSERT_NE(server, nullptr);
    CheckStandingsAndToken(server->address());
  }
  std::vector<v1::TournamentEvent> stored = LedgerEvents(*uri, state, "spring");
  ASSERT_EQ(stored.size(), kOldRows + 2);
  ASSERT_TRUE(stored[kOldRows].has_migrated());
  EXPECT_EQ(stored[kOldRows].migrated().dump_sha256(), old_dump);
  EXPECT_EQ(stored[kOldRows].migrated().dump_rows(), kOldRows);
  EXPECT_FALSE(Writable(old_file));
  EXPECT_FALSE(Writable(state + "/tokens.db"));
  {
    auto server = testing::ServerProcess::StartShared(*uri, state);
    ASSERT_NE(server, nullptr);
  }
  EXPECT_EQ(LedgerEvents(*uri, state, "spring").size(), kOldRows + 2);

  ProcessResult r = testing::RunArbiter({"verify", "--db", *uri});
  EXPECT_EQ(r.exit, 0) << r.out << r.err;
  EXPECT_TRUE(absl::StrContains(r.out, "1 tournament(s) checked")) << r.out;
  // One byte of the stored `created` (its title's first letter), triggers off.
  absl::StatusOr<ledger::PgConn> pg = ledger::PgConn::Connect(*uri);
  ASSERT_TRUE(pg.ok()) << pg.status();
  ASSERT_TRUE(pg->Run("ALTER TABLE events DISABLE TRIGGER USER;"
                      "UPDATE events SET event = overlay(event placing 's'::bytea from "
                      "position('Spring Open'::bytea in event) for 1) "
                      "WHERE game_id = 'tournaments/spring' AND revision = 1")
                  .ok());
  r = testing::RunArbiter({"verify", "--db", *uri});
  EXPECT_EQ(r.exit, 1) << r.out << r.err;
  EXPECT_TRUE(absl::StrContains(r.out, "NOT intact")) << r.out;
  EXPECT_TRUE(absl::StrContains(r.out, "tournament 'spring'")) << r.out;
}

// Issue 44.7: several --state folders of the release before (each a
// server's, each with its tournaments.db and tokens.db) merged into one
// store by `arbiter state merge`: tests/data/upgrade (the tournament
// `spring`, the director's token) and tests/data/upgrade-tokens (two
// tokens, one revoked).
class StateMergeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    first_ = CopyOldFolder(first_dir_);
    second_ = second_dir_.File("data");
    std::filesystem::copy(testing::TestDataPath("upgrade-tokens/data"), second_);
  }
  ProcessResult Merge(const std::vector<std::string>& folders) {
    std::vector<std::string> args = {"state", "merge", "--into", into_.path()};
    args.insert(args.end(), folders.begin(), folders.end());
    return testing::RunArbiter(args);
  }
  // The store writes nothing on a refusal: no tournament, no token, every
  // old file still to merge.
  void ExpectNothingWritten() {
    EXPECT_TRUE(LedgerEvents(into_.path(), "", "spring").empty());
    ProcessResult r = testing::RunArbiter({"token", "list", "--db", into_.path()});
    EXPECT_EQ(r.exit, 0) << r.err;
    EXPECT_EQ(r.out, "");
    for (const std::string& f :
         {first_ + "/tournaments.db", first_ + "/tokens.db", second_ + "/tokens.db"}) {
      EXPECT_TRUE(Writable(f)) << f;
    }
  }
  // `tournament standings spring` on a server of the store, with `token`.
  int StandingsWith(const std::string& token_file) {
    auto server = testing::ServerProcess::Start(into_.path());
    EXPECT_NE(server, nullptr);
    if (server == nullptr) return -1;
    const std::string token(
        absl::StripTrailingAsciiWhitespace(ReadFile(testing::TestDataPath(token_file))));
    return testing::RunCli({"tournament", "standings", "spring"}, "", server->address(),
                           {{"ARBITER_TOKEN", token}})
        .exit;
  }

  testing::TempDir first_dir_{"arbiter-state-a"};
  testing::TempDir second_dir_{"arbiter-state-b"};
  testing::TempDir into_{"arbiter-store"};
  std::string first_, second_;
};

TEST_F(StateMergeTest, TwoFoldersMergeIntoOneStore) {
  const std::string dump = DumpSha256(first_ + "/tournaments.db");
  ProcessResult r = Merge({first_, second_});
  ASSERT_EQ(r.exit, 0) << r.out << r.err;
  EXPECT_EQ(r.out, "merged 2 folder(s): 1 tournament(s), 3 token(s)\n");
  std::vector<v1::TournamentEvent> stored = LedgerEvents(into_.path(), "", "spring");
  ASSERT_EQ(stored.size(), kOldRows + 1);
  EXPECT_EQ(stored[kOldRows].migrated().dump_sha256(), dump);
  for (const std::string& f :
       {first_ + "/tournaments.db", first_ + "/tokens.db", second_ + "/tokens.db"}) {
    EXPECT_FALSE(Writable(f)) << f;
  }
  // Both folders' tokens are the store's: each folder's chief arbiter reads,
  // the revoked token is still refused.
  EXPECT_EQ(StandingsWith("upgrade/chief.token"), 0);
  EXPECT_EQ(StandingsWith("upgrade-tokens/live.token"), 0);
  EXPECT_NE(StandingsWith("upgrade-tokens/revoked.token"), 0);
  // Again: nothing moves twice.
  r = Merge({first_, second_});
  ASSERT_EQ(r.exit, 0) << r.out << r.err;
  EXPECT_EQ(LedgerEvents(into_.path(), "", "spring").size(), kOldRows + 1);
}

TEST_F(StateMergeTest, ATournamentIdInTwoFoldersIsRefusedNamingBoth) {
  testing::TempDir third_dir("arbiter-state-c");
  const std::string third = CopyOldFolder(third_dir);
  // The same tournament, but not the same token: the tokens.db left out.
  std::filesystem::remove(third + "/tokens.db");
  ProcessResult r = Merge({first_, third});
  EXPECT_EQ(r.exit, 2) << r.out << r.err;
  EXPECT_TRUE(absl::StrContains(
      r.err, absl::StrCat("tournament 'spring' is in both ", first_, " and ", third)))
      << r.err;
  ExpectNothingWritten();
}

TEST_F(StateMergeTest, ATokenIdInTwoFoldersIsRefusedNamingBoth) {
  testing::TempDir third_dir("arbiter-state-c");
  const std::string third = third_dir.File("data");
  std::filesystem::copy(testing::TestDataPath("upgrade-tokens/data"), third);
  ProcessResult r = Merge({first_, second_, third});
  EXPECT_EQ(r.exit, 2) << r.out << r.err;
  EXPECT_TRUE(absl::StrContains(r.err, "token '")) << r.err;
  EXPECT_TRUE(absl::StrContains(r.err, absl::StrCat("' is in both ", second_, " and ", third)))
      << r.err;
  ExpectNothingWritten();
}

// A folder named by mistake is refused by name, before anything is merged.
TEST_F(StateMergeTest, AFolderThatIsNotThereIsRefusedNamingIt) {
  const std::string missing = first_ + "-typo";
  ProcessResult r = Merge({first_, missing});
  EXPECT_NE(r.exit, 0) << r.out << r.err;
  EXPECT_TRUE(absl::StrContains(r.err, absl::StrCat(missing, ": no such folder"))) << r.err;
  ExpectNothingWritten();
}

class MigrationTest : public ::testing::Test {
 protected:
  void SetUp() override {
    data_ = CopyOldFolder(dir_);
    legacy_ = *tournament::ReadLegacyTournaments(data_ + "/tournaments.db");
    ASSERT_EQ(legacy_.rows, kOldRows);
    Open();
  }
  void Open() {
    ledger_.reset();
    ledger::LedgerOptions o;
    o.dir = data_;
    o.judge = &judge_;
    absl::StatusOr<std::unique_ptr<ledger::Ledger>> l = ledger::Ledger::Open(o);
    ASSERT_TRUE(l.ok()) << l.status();
    ledger_ = *std::move(l);
  }
  std::vector<v1::TournamentEvent> Spring() { return ledger_->ReadTournament("spring").value(); }

  testing::TempDir dir_{"arbiter-migration"};
  std::string data_;
  tournament::LegacyTournaments legacy_;
  AdjudicatorJudge judge_;
  std::unique_ptr<ledger::Ledger> ledger_;
};

// A move cut off after three events is finished by the next open, the file's
// events in order; a further open moves nothing, even after the tournament
// went on in the ledger.
TEST_F(MigrationTest, ACutOffMoveIsFinishedAndASecondMovesNothing) {
  const std::vector<v1::TournamentEvent>& file = legacy_.streams.at("spring");
  ASSERT_TRUE(ledger_
                  ->AppendAndWait(ledger::AppendRequest::Tournament(
                      "spring", ledger::ExpectedRevision::NoStream(), {file[0], file[1], file[2]}))
                  .ok());
  ASSERT_TRUE(tournament::MigrateLegacyTournaments(*ledger_, data_).ok());
  std::vector<v1::TournamentEvent> held = Spring();
  ASSERT_EQ(held.size(), kOldRows + 1);
  for (size_t i = 0; i < kOldRows; ++i) {
    EXPECT_EQ(CanonicalBytes(held[i]), CanonicalBytes(file[i])) << "revision " << i + 1;
  }
  EXPECT_EQ(held.back().migrated().dump_sha256(), legacy_.dump_sha256);

  v1::TournamentEvent later;
  later.set_actor("director");
  later.mutable_player_added()->mutable_player()->set_id("e");
  later.mutable_player_added()->mutable_player()->set_name("Sun Yue");
  ASSERT_TRUE(ledger_
                  ->AppendAndWait(ledger::AppendRequest::Tournament(
                      "spring", ledger::ExpectedRevision::Exactly(kOldRows + 1), {later}))
                  .ok());
  Open();
  absl::Status again = tournament::MigrateLegacyTournaments(*ledger_, data_);
  EXPECT_TRUE(again.ok()) << again;
  EXPECT_EQ(Spring().size(), kOldRows + 2);
}

// A tournament of the same id already in the ledger with other events is
// refused by name, and nothing of the file is moved.
TEST_F(MigrationTest, AClashingIdIsRefusedByName) {
  v1::TournamentEvent created;
  created.set_actor("director");
  created.mutable_created()->set_tournament_id("spring");
  created.mutable_created()->set_title("Another Spring");
  ASSERT_TRUE(ledger_
                  ->AppendAndWait(ledger::AppendRequest::Tournament(
                      "spring", ledger::ExpectedRevision::NoStream(), {created}))
                  .ok());
  const absl::Status s = tournament::MigrateLegacyTournaments(*ledger_, data_);
  EXPECT_TRUE(absl::IsFailedPrecondition(s)) << s;
  EXPECT_TRUE(absl::StrContains(s.message(), "tournament 'spring'")) << s;
  EXPECT_EQ(Spring().size(), 1u);
  EXPECT_TRUE(Writable(data_ + "/tournaments.db"));
}

}  // namespace
}  // namespace arbiter
