// `arbiter sync` end to end, through the binary: a venue's SQLite ledger of
// several games (the shared scenarios, judged by the real Adjudicator)
// into a federation's ledger on a throwaway PostgreSQL cluster. Run twice,
// or cut off midway and rerun: every venue event is in the federation
// exactly once, byte for byte; `arbiter verify` proves each synced game
// against the venue's own signed checkpoints; a venue record that does not
// prove itself (a wrong key, an altered event or ruling) is refused, a live game in
// progress waits, and a stored venue proof that no longer holds fails the
// federation's verify. The same through the federation's server (`sync
// --to ADDR`, SyncVenueGame with a VENUE token), which then refuses every
// other write to a synced game.
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "adjudicator/judge/adjudicator_judge.h"
#include "arbiter/v1/service.grpc.pb.h"
#include "google/protobuf/util/json_util.h"
#include "grpcpp/client_context.h"
#include "grpcpp/create_channel.h"
#include "grpcpp/security/credentials.h"
#include "gtest/gtest.h"
#include "ledger/bundle.h"
#include "ledger/ledger.h"
#include "ledger/postgres/log_reader.h"
#include "ledger/postgres/pg.h"
#include "ledger/signer.h"
#include "ledger/sqlite.h"
#include "ledger/sqlite/log_reader.h"
#include "proto/canonical/canonical_bytes.h"
#include "proto/canonical/sha256.h"
#include "tests/support/arbiter_process.h"
#include "tests/support/event_lines.h"
#include "tests/support/files.h"
#include "tests/support/paths.h"
#include "tests/support/pg_cluster.h"
#include "tests/support/temp_dir.h"

namespace arbiter::ledger {
namespace {

using testing::ProcessResult;

constexpr const char* kScenarios[] = {"phone-twice", "double-move", "ko-retake", "late-within",
                                      "left-seat"};

// `arbiter ARGS...`, its stderr with its stdout, with `env` set.
ProcessResult Arbiter(const std::vector<std::string>& args,
                      std::vector<std::pair<std::string, std::string>> env = {}) {
  return testing::RunArbiter(args, {.merge_stderr = true, .env = {.set = std::move(env)}});
}

// The event bytes of every game of a ledger, by game id.
using Games = std::map<std::string, std::vector<std::string>>;
Games ReadGames(LogSource& reader) {
  Games games;
  absl::StatusOr<std::vector<v1::LedgerEntry>> log = reader.ReadLog(0, 1 << 20);
  EXPECT_TRUE(log.ok()) << log.status();
  for (const v1::LedgerEntry& e : log.value_or(std::vector<v1::LedgerEntry>{})) {
    games[e.game_id()].push_back(e.event());
  }
  return games;
}

class SyncTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // The venue: the scenarios recorded one event per append, as at a board.
    absl::StatusOr<std::unique_ptr<Ledger>> venue = OpenVenue();
    ASSERT_TRUE(venue.ok()) << venue.status();
    for (const char* scenario : kScenarios) {
      absl::StatusOr<std::vector<v1::Event>> events = testing::ReadEventLines(
          testing::TestDataPath(std::string("scenarios/public/") + scenario + ".jsonl"));
      ASSERT_TRUE(events.ok()) << events.status();
      const std::string game = events->front().game_created().game_id();
      uint64_t revision = 0;
      for (const v1::Event& e : *events) {
        auto r = (*venue)->AppendAndWait(
            AppendRequest::Game(game, ExpectedRevision::Exactly(revision++), {e}));
        ASSERT_TRUE(r.ok()) << scenario << ": " << r.status();
      }
    }
    ASSERT_TRUE((*venue)->Checkpoint().ok());
    absl::StatusOr<std::string> uri = testing::SharedPgCluster().NewDatabase();
    ASSERT_TRUE(uri.ok()) << uri.status();
    federation_ = *uri;
  }

  // A venue's ledger (by default the test's venue), its games judged by
  // the real Adjudicator.
  absl::StatusOr<std::unique_ptr<Ledger>> OpenVenue(const std::string& dir = "") {
    LedgerOptions o;
    o.dir = dir.empty() ? venue_.path() : dir;
    o.judge = &judge_;
    return Ledger::Open(o);
  }

  ProcessResult Sync(std::vector<std::pair<std::string, std::string>> env = {},
                     std::vector<std::string> more = {}) {
    std::vector<std::string> args = {"sync",      "--from",  venue_.path(), "--to",
                                     federation_, "--state", state_.path()};
    args.insert(args.end(), more.begin(), more.end());
    return Arbiter(args, std::move(env));
  }
  // The test venue synced into the federation: `arbiter sync --to` its
  // database here, its server in PushTest.
  virtual ProcessResult SyncVenue(std::vector<std::pair<std::string, std::string>> env = {}) {
    return Sync(std::move(env));
  }
  // A sync of the 5 games that adds `added` events to the `held` there
  // already, after which the federation holds exactly the venue's events.
  void SyncAll(uint64_t added, uint64_t held) {
    ProcessResult r = SyncVenue();
    ASSERT_EQ(r.exit, 0) << r.out;
    EXPECT_NE(r.out.find(absl::StrCat("synced 5 game(s): ", added, " new event(s), ", held,
                                      " already here")),
              std::string::npos)
        << r.out;
    EXPECT_EQ(FederationGames(), VenueGames());
  }
  ProcessResult Verify() { return Arbiter({"verify", "--db", federation_}); }
  // A sync cut off inside the second game, then run again.
  void CutOffThenRerun() {
    const uint64_t first_game = VenueGames()["phone-twice"].size();
    ProcessResult cut = SyncVenue({{"ARBITER_SYNC_STOP_AFTER", std::to_string(first_game + 3)}});
    EXPECT_NE(cut.exit, 0) << cut.out;
    EXPECT_NE(cut.out.find("stopping abruptly"), std::string::npos) << cut.out;
    uint64_t held = 0;
    for (const auto& [game, events] : FederationGames()) held += events.size();
    EXPECT_EQ(held, first_game + 3);
    // What it copied is not yet proven: the venue proof of the game it was
    // cut off in is stored only once the game is complete.
    ProcessResult unproven = Verify();
    EXPECT_EQ(unproven.exit, 1) << unproven.out;
    EXPECT_NE(unproven.out.find("covered by no venue proof"), std::string::npos) << unproven.out;

    SyncAll(VenueEvents() - held, held);
    ProcessResult verified = Verify();
    EXPECT_EQ(verified.exit, 0) << verified.out;
    EXPECT_NE(verified.out.find("venue proofs: 5 synced game(s)"), std::string::npos)
        << verified.out;
  }

  // `arbiter sync --from` the test venue's own server into the federation's
  // database: every game copied, and proven against the venue.
  void SyncFromTheVenuesServer() {
    std::unique_ptr<testing::ServerProcess> server = testing::ServerProcess::Start(venue_.path());
    ASSERT_NE(server, nullptr);
    ProcessResult r = Arbiter({"sync", "--from", server->address(), "--to", federation_, "--state",
                               state_.path(), "--venue-pubkey", venue_.File("ledger.pub")});
    ASSERT_EQ(r.exit, 0) << r.out;
    server->Stop();
    EXPECT_EQ(FederationGames(), VenueGames());
    EXPECT_EQ(Verify().exit, 0);
  }

  Games VenueGames() {
    absl::StatusOr<LogReader> reader = LogReader::Open(venue_.File("ledger.db"));
    EXPECT_TRUE(reader.ok()) << reader.status();
    return reader.ok() ? ReadGames(*reader) : Games();
  }
  Games FederationGames() {
    absl::StatusOr<std::unique_ptr<PgLogReader>> reader = PgLogReader::Open(federation_);
    EXPECT_TRUE(reader.ok()) << reader.status();
    return reader.ok() ? ReadGames(**reader) : Games();
  }
  uint64_t VenueEvents() {
    uint64_t n = 0;
    for (const auto& [game, events] : VenueGames()) n += events.size();
    return n;
  }

  AdjudicatorJudge judge_;
  testing::TempDir venue_{"arbiter-venue"};
  testing::TempDir state_{"arbiter-federation"};
  std::string federation_;
};

TEST_F(SyncTest, TwiceCopiesEachEventOnceAndVerifyProvesItAgainstTheVenue) {
  SyncAll(VenueEvents(), 0);
  SyncAll(0, VenueEvents());

  ProcessResult verified = Verify();
  EXPECT_EQ(verified.exit, 0) << verified.out;
  EXPECT_NE(verified.out.find("every ruling matches"), std::string::npos) << verified.out;
  absl::StatusOr<std::string> venue_key = ReadPublicKeyFile(venue_.File("ledger.pub"));
  ASSERT_TRUE(venue_key.ok()) << venue_key.status();
  EXPECT_NE(verified.out.find("venue proofs: 5 synced game(s), " + std::to_string(VenueEvents()) +
                              " event(s) in 5 proof(s), each proven in its venue's signed log; "
                              "venue key(s) " +
                              ToHex(Sha256(*venue_key))),
            std::string::npos)
      << verified.out;
  ProcessResult one = Arbiter({"verify", "--db", federation_, "ko-retake"});
  EXPECT_EQ(one.exit, 0) << one.out;
  EXPECT_NE(one.out.find("venue proofs: 1 synced game(s)"), std::string::npos) << one.out;
}

TEST_F(SyncTest, CutOffMidwayThenRerunLosesAndDuplicatesNothing) { CutOffThenRerun(); }

// What a venue recorded before a check of new input existed (an arrival
// nobody awaited, displaced stones standing without a liberty) is refused
// to a client today, yet syncs as the venue recorded it: the venue judged
// it, and the federation's verify re-derives it.
TEST_F(SyncTest, WhatAVenueRecordedBeforeACheckOfNewInputStillSyncs) {
  const std::vector<std::string> lines = {
      R"({"at": "2026-05-01T09:00:00Z", "gameCreated": {"gameId": "older", "black": {"name": "Li Wei"}, "white": {"name": "Wang Fang"}, "venue": "SAME_SITE", "scheduledStart": "2026-05-01T09:00:00Z"}})",
      R"({"at": "2026-05-01T09:00:00Z", "gameStarted": {"absent": ["WHITE"]}})",
      R"({"at": "2026-05-01T09:00:10Z", "move": {"color": "BLACK", "point": "B1"}})",
      R"({"at": "2026-05-01T09:01:00Z", "playerArrived": {"color": "BLACK"}})",
      R"({"at": "2026-05-01T09:02:00Z", "playerArrived": {"color": "WHITE"}})",
      R"({"at": "2026-05-01T09:02:10Z", "move": {"color": "WHITE", "point": "A1"}})",
      R"({"at": "2026-05-01T09:02:20Z", "move": {"color": "BLACK", "point": "C3"}})",
      R"({"at": "2026-05-01T09:03:00Z", "stonesDisplaced": {"points": [{"from": "C3", "to": "A2"}], "agreement": "STANDS"}})",
  };
  {
    absl::StatusOr<std::unique_ptr<Ledger>> venue = OpenVenue();
    ASSERT_TRUE(venue.ok()) << venue.status();
    for (size_t i = 0; i < lines.size(); ++i) {
      v1::Event e;
      ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(lines[i], &e).ok()) << lines[i];
      AppendRequest now = AppendRequest::Game("older", ExpectedRevision::Exactly(i), {e});
      const bool refused_today = i == 3 || i == 7;
      absl::StatusOr<std::vector<v1::LedgerEntry>> taken = (*venue)->AppendAndWait(now);
      EXPECT_EQ(taken.ok(), !refused_today) << lines[i] << ": " << taken.status();
      if (taken.ok()) continue;
      EXPECT_EQ(taken.status().code(), absl::StatusCode::kInvalidArgument) << taken.status();
      // As the venue's older binary took it: judged without the check.
      now.synced = true;
      ASSERT_TRUE((*venue)->AppendAndWait(now).ok()) << lines[i];
    }
    ASSERT_TRUE((*venue)->Checkpoint().ok());
  }
  ProcessResult r = Sync();
  ASSERT_EQ(r.exit, 0) << r.out;
  EXPECT_NE(r.out.find("synced 6 game(s)"), std::string::npos) << r.out;
  EXPECT_EQ(FederationGames(), VenueGames());
  ProcessResult verified = Verify();
  EXPECT_EQ(verified.exit, 0) << verified.out;
  EXPECT_NE(verified.out.find("every ruling matches"), std::string::npos) << verified.out;
}

TEST_F(SyncTest, AWrongVenueKeyWritesNothing) {
  testing::TempDir other{"arbiter-other-venue"};
  ASSERT_TRUE(LoadSigningKey(other.path()).ok());
  ProcessResult refused = Sync({}, {"--venue-pubkey", other.File("ledger.pub")});
  EXPECT_EQ(refused.exit, 1) << refused.out;
  EXPECT_NE(refused.out.find("game 'ko-retake': NOT synced: the venue's record of game "
                             "'ko-retake' does not prove itself"),
            std::string::npos)
      << refused.out;
  EXPECT_TRUE(FederationGames().empty());
}

TEST_F(SyncTest, AnAlteredVenueEventIsRefusedAndTheGamesBeforeItSync) {
  {
    absl::StatusOr<Db> db = Db::Open(venue_.File("ledger.db"), SQLITE_OPEN_READWRITE);
    ASSERT_TRUE(db.ok()) << db.status();
    // The last game's last event altered: the venue's signed root no
    // longer matches its log from there on.
    ASSERT_TRUE(db->Exec("DROP TRIGGER events_no_UPDATE;"
                         "UPDATE events SET event = CAST(event AS BLOB) || x'00' WHERE position = "
                         "(SELECT MAX(position) FROM events WHERE game_id = 'left-seat')")
                    .ok());
  }
  ProcessResult r = Sync();
  EXPECT_EQ(r.exit, 1) << r.out;
  EXPECT_NE(r.out.find("game 'left-seat': NOT synced"), std::string::npos) << r.out;
  EXPECT_EQ(FederationGames().count("left-seat"), 0u);
  EXPECT_EQ(Verify().exit, 0);
}

TEST_F(SyncTest, AnAlteredVenueRulingIsRefusedAndTheOtherGamesSync) {
  {
    absl::StatusOr<Db> db = Db::Open(venue_.File("ledger.db"), SQLITE_OPEN_READWRITE);
    ASSERT_TRUE(db.ok()) << db.status();
    // Rulings are not in the Merkle tree: re-adjudication is what catches this.
    ASSERT_TRUE(db->Exec("DROP TRIGGER rulings_no_DELETE;"
                         "DELETE FROM rulings WHERE position IN (SELECT position FROM events "
                         "WHERE game_id = 'phone-twice')")
                    .ok());
  }
  ProcessResult r = Sync();
  EXPECT_EQ(r.exit, 1) << r.out;
  EXPECT_NE(r.out.find("game 'phone-twice': NOT synced"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("synced 4 game(s)"), std::string::npos) << r.out;
  Games federation = FederationGames();
  EXPECT_EQ(federation.count("phone-twice"), 0u);
  EXPECT_EQ(federation.size(), 4u);
  EXPECT_EQ(Verify().exit, 0);
}

TEST_F(SyncTest, AStoredVenueProofThatNoLongerHoldsFailsVerify) {
  ASSERT_EQ(Sync().exit, 0);
  ASSERT_EQ(Verify().exit, 0);
  // Whoever can write the federation's database swaps a venue's key: the
  // venue's signatures no longer verify under it.
  testing::TempDir other{"arbiter-other-venue"};
  absl::StatusOr<Signer> forger = LoadSigningKey(other.path());
  ASSERT_TRUE(forger.ok()) << forger.status();
  absl::StatusOr<PgConn> conn = PgConn::Connect(federation_);
  ASSERT_TRUE(conn.ok()) << conn.status();
  ASSERT_TRUE(conn->Run("ALTER TABLE venue_games DISABLE TRIGGER USER").ok());
  ASSERT_TRUE(conn->Exec("UPDATE venue_games SET public_key = $1 WHERE game_id = 'left-seat'",
                         PgParams().Bytes(forger->public_key_der()))
                  .ok());
  ProcessResult r = Verify();
  EXPECT_EQ(r.exit, 1) << r.out;
  EXPECT_NE(r.out.find("synced game 'left-seat' is NOT proven by its venue"), std::string::npos)
      << r.out;
}

TEST_F(SyncTest, AGameIdAnotherVenueSyncedIsRefused) {
  SyncAll(VenueEvents(), 0);
  // A second venue, its own key, a game under an id the first one synced.
  testing::TempDir second{"arbiter-second-venue"};
  {
    absl::StatusOr<std::unique_ptr<Ledger>> venue = OpenVenue(second.path());
    ASSERT_TRUE(venue.ok()) << venue.status();
    absl::StatusOr<std::vector<v1::Event>> events =
        testing::ReadEventLines(testing::TestDataPath("scenarios/public/ko-retake.jsonl"));
    ASSERT_TRUE(events.ok()) << events.status();
    (*events)[0].mutable_game_created()->mutable_black()->set_name("Someone Else");
    ASSERT_TRUE(
        (*venue)
            ->AppendAndWait(AppendRequest::Game("ko-retake", ExpectedRevision::NoStream(), *events))
            .ok());
    ASSERT_TRUE((*venue)->Checkpoint().ok());
  }
  ProcessResult r =
      Arbiter({"sync", "--from", second.path(), "--to", federation_, "--state", state_.path()});
  EXPECT_EQ(r.exit, 1) << r.out;
  EXPECT_NE(r.out.find("game 'ko-retake': NOT synced: game 'ko-retake' was synced from another "
                       "venue"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(FederationGames(), VenueGames());
  EXPECT_EQ(Verify().exit, 0);
}

TEST_F(SyncTest, ALiveGameInProgressWaitsForALaterSync) {
  {
    // A live game at the venue, its first events recorded, no result yet.
    absl::StatusOr<std::unique_ptr<Ledger>> venue = OpenVenue();
    ASSERT_TRUE(venue.ok()) << venue.status();
    absl::StatusOr<std::vector<v1::Event>> events =
        testing::ReadEventLines(testing::TestDataPath("scenarios/public/phone-twice.jsonl"));
    ASSERT_TRUE(events.ok()) << events.status();
    events->resize(3);
    (*events)[0].mutable_game_created()->set_game_id("live-board");
    (*events)[0].mutable_game_created()->set_live(true);
    ASSERT_TRUE((*venue)
                    ->AppendAndWait(
                        AppendRequest::Game("live-board", ExpectedRevision::NoStream(), *events))
                    .ok());
    ASSERT_TRUE((*venue)->Checkpoint().ok());
  }
  ProcessResult r = Sync();
  ASSERT_EQ(r.exit, 0) << r.out;
  EXPECT_NE(r.out.find("game 'live-board': left for a later sync: a live game in progress"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("synced 5 game(s)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("1 game(s) left for a later sync"), std::string::npos) << r.out;
  EXPECT_EQ(FederationGames().count("live-board"), 0u);
  EXPECT_EQ(Verify().exit, 0);
}

TEST_F(SyncTest, FromTheVenuesServer) { SyncFromTheVenuesServer(); }

// A game whose bundle passes one page of ExportGame (1 MiB): the venue's
// server hands it over in pages, and the sync joins them. (Before, it read
// the first page only, and the bundle did not parse.)
TEST_F(SyncTest, FromTheVenuesServerAGameLargerThanAPage) {
  {
    absl::StatusOr<std::unique_ptr<Ledger>> venue = OpenVenue();
    ASSERT_TRUE(venue.ok()) << venue.status();
    int64_t t = 1777626000;
    auto at = [&t] {
      v1::Event e;
      e.mutable_at()->set_seconds(++t);
      return e;
    };
    v1::Event created = at();
    v1::GameCreated* g = created.mutable_game_created();
    g->set_game_id("long-board");
    g->set_ruleset("cn-1988");
    g->set_board_size(19);
    *g->mutable_scheduled_start() = created.at();
    v1::Event started = at();
    started.mutable_game_started();
    ASSERT_TRUE((*venue)
                    ->AppendAndWait(AppendRequest::Game("long-board", ExpectedRevision::NoStream(),
                                                        {created, started}))
                    .ok());
    // Pairs of a disturbance (a ruling pending, 1988 art. 19) and the
    // arbiter's advice on it, with a note of 1,000 bytes.
    uint64_t revision = 2;
    for (int pair = 0; pair < 400; ++pair) {
      v1::Event disturbance = at();
      disturbance.mutable_misconduct()->set_color(v1::BLACK);
      disturbance.mutable_misconduct()->set_kind(v1::Misconduct::DISTURBANCE);
      auto made = (*venue)->AppendAndWait(
          AppendRequest::Game("long-board", ExpectedRevision::Exactly(revision), {disturbance}));
      ASSERT_TRUE(made.ok()) << made.status();
      ASSERT_GT((*made)[0].rulings_size(), 0);
      v1::Event advice = at();
      const v1::LedgerEntry& entry = (*made)[0];
      advice.mutable_arbiter_decision()->set_ruling(
          entry.rulings(entry.rulings_size() - 1).number());
      advice.mutable_arbiter_decision()->set_choice("ADVICE");
      advice.mutable_arbiter_decision()->set_note(std::string(1000, 'n'));
      auto decided = (*venue)->AppendAndWait(
          AppendRequest::Game("long-board", ExpectedRevision::Exactly(revision + 1), {advice}));
      ASSERT_TRUE(decided.ok()) << decided.status();
      revision += 2;
    }
    ASSERT_TRUE((*venue)->Checkpoint().ok());
  }
  absl::StatusOr<LogReader> reader = LogReader::Open(venue_.File("ledger.db"));
  ASSERT_TRUE(reader.ok()) << reader.status();
  absl::StatusOr<v1::AuditBundle> bundle = ExportBundle(*reader, "long-board");
  ASSERT_TRUE(bundle.ok()) << bundle.status();
  EXPECT_GT(bundle->ByteSizeLong(), size_t{1} << 20) << "the bundle fits one page";

  SyncFromTheVenuesServer();
}

// The federation's server, on the federation's PostgreSQL ledger (or on
// the SQLite ledger in `sqlite_dir`), taking the test venue's games as
// venue "tokyo" (or under `venue_key`).
class PushTest : public SyncTest {
 protected:
  void StartFederation(const std::string& venue_key = "", const std::string& sqlite_dir = "") {
    tokens_ = sqlite_dir.empty() ? federation_ : sqlite_dir;  // the database's tokens
    venue_token_ = Token("VENUE", "tokyo sync");
    chief_token_ = Token("CHIEF_ARBITER", "federation chief");
    const std::vector<std::string> flags = {
        "--venue-key", "tokyo=" + (venue_key.empty() ? venue_.File("ledger.pub") : venue_key)};
    server_ = sqlite_dir.empty()
                  ? testing::ServerProcess::StartShared(federation_, state_.path(), flags)
                  : testing::ServerProcess::Start(sqlite_dir, flags);
    ASSERT_NE(server_, nullptr);
  }
  std::string Token(const std::string& role, const std::string& name,
                    const std::vector<std::string>& more = {}) {
    std::vector<std::string> args = {"token",  "create", "--role", role,
                                     "--name", name,     "--db",   tokens_};
    args.insert(args.end(), more.begin(), more.end());
    const ProcessResult r = testing::RunArbiter(args);
    EXPECT_EQ(r.exit, 0) << r.out << r.err;
    return r.out.substr(0, r.out.find('\n'));
  }
  ProcessResult Push(std::vector<std::pair<std::string, std::string>> env = {},
                     const std::string& token = "") {
    env.emplace_back("ARBITER_FEDERATION_TOKEN", token.empty() ? venue_token_ : token);
    return Arbiter({"sync", "--from", venue_.path(), "--to", server_->address()}, std::move(env));
  }
  ProcessResult SyncVenue(std::vector<std::pair<std::string, std::string>> env = {}) override {
    return Push(std::move(env));
  }
  // One move recorded at a board of `game` through the federation's server.
  ProcessResult RecordMove(const std::string& token, const std::string& game) {
    return testing::RunArbiter(
        {"record", "-", "--game", game, "--server", server_->address()},
        {.input = "{\"at\": \"2026-05-01T09:05:00Z\", \"move\": {\"color\": \"BLACK\", "
                  "\"point\": \"A1\"}}\n",
         .merge_stderr = true,
         .env = {.set = {{"ARBITER_TOKEN", token}}}});
  }
  // SyncVenueGame called directly with `bundle`, as the venue token.
  grpc::Status CallSync(const v1::AuditBundle& bundle) {
    std::unique_ptr<v1::Arbiter::Stub> stub = v1::Arbiter::NewStub(
        grpc::CreateChannel(server_->address(), grpc::InsecureChannelCredentials()));
    grpc::ClientContext context;
    context.AddMetadata("authorization", "Bearer " + venue_token_);
    v1::SyncVenueGameRequest req;
    *req.mutable_bundle() = bundle;
    v1::SyncVenueGameResponse resp;
    return stub->SyncVenueGame(&context, req, &resp);
  }

  std::string tokens_;  // the federation server's tokens' directory
  std::string venue_token_, chief_token_;
  std::unique_ptr<testing::ServerProcess> server_;
};

TEST_F(PushTest, TwiceCopiesEachEventOnceAndVerifyProvesItAgainstTheVenue) {
  StartFederation();
  SyncAll(VenueEvents(), 0);
  SyncAll(0, VenueEvents());
  ProcessResult verified = Verify();
  EXPECT_EQ(verified.exit, 0) << verified.out;
  EXPECT_NE(verified.out.find("venue proofs: 5 synced game(s), " + std::to_string(VenueEvents()) +
                              " event(s) in 5 proof(s)"),
            std::string::npos)
      << verified.out;
}

TEST_F(PushTest, CutOffMidwayThenRerunLosesAndDuplicatesNothing) {
  StartFederation();
  CutOffThenRerun();
}

TEST_F(PushTest, AServerThatKnowsAnotherKeyForTheVenueWritesNothing) {
  testing::TempDir other{"arbiter-other-venue"};
  ASSERT_TRUE(LoadSigningKey(other.path()).ok());
  StartFederation(other.File("ledger.pub"));
  ProcessResult refused = Push();
  EXPECT_EQ(refused.exit, 1) << refused.out;
  EXPECT_NE(refused.out.find("game 'ko-retake': NOT synced: bundle: its key "), std::string::npos)
      << refused.out;
  EXPECT_NE(refused.out.find("is not a venue key this server accepts"), std::string::npos)
      << refused.out;
  EXPECT_TRUE(FederationGames().empty());
}

TEST_F(PushTest, AnAlteredEventOrRulingIsRefusedByTheServer) {
  StartFederation();
  absl::StatusOr<LogReader> reader = LogReader::Open(venue_.File("ledger.db"));
  ASSERT_TRUE(reader.ok()) << reader.status();
  absl::StatusOr<v1::AuditBundle> bundle = ExportBundle(*reader, "ko-retake");
  ASSERT_TRUE(bundle.ok()) << bundle.status();
  // An event's bytes altered after the venue exported them: its inclusion
  // proof no longer leads to the venue's signed root.
  v1::AuditBundle altered = *bundle;
  v1::Event event;
  ASSERT_TRUE(event.ParseFromString(altered.entries(3).entry().event()));
  event.mutable_at()->set_seconds(event.at().seconds() + 1);
  altered.mutable_entries(3)->mutable_entry()->set_event(CanonicalBytes(event));
  grpc::Status s = CallSync(altered);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::DATA_LOSS) << s.error_message();
  EXPECT_NE(s.error_message().find("does not prove itself"), std::string::npos)
      << s.error_message();
  // A ruling left out: re-adjudication derives it again.
  v1::AuditBundle ruled = *bundle;
  bool dropped = false;
  for (v1::ProvenEntry& p : *ruled.mutable_entries()) {
    if (p.entry().rulings_size() > 0) {
      p.mutable_entry()->clear_rulings();
      dropped = true;
      break;
    }
  }
  ASSERT_TRUE(dropped);
  s = CallSync(ruled);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::DATA_LOSS) << s.error_message();
  EXPECT_TRUE(FederationGames().empty());
  // The bundle as the venue signed it goes through.
  s = CallSync(*bundle);
  EXPECT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(FederationGames()["ko-retake"], VenueGames()["ko-retake"]);
}

TEST_F(PushTest, ATokenWithoutTheVenueRoleIsDenied) {
  StartFederation();
  ProcessResult denied = Push({}, chief_token_);
  EXPECT_EQ(denied.exit, 4) << denied.out;
  EXPECT_NE(denied.out.find("PERMISSION_DENIED"), std::string::npos) << denied.out;
  EXPECT_TRUE(FederationGames().empty());
}

TEST_F(PushTest, ASyncedGameIsWrittenByNobodyElse) {
  StartFederation();
  SyncAll(VenueEvents(), 0);
  // ko-retake has no result yet: a move would be judged, but the game is
  // the venue's.
  const std::string arbiter = Token("ARBITER", "board 3", {"--game", "ko-retake"});
  for (const std::string& token : {chief_token_, arbiter}) {
    ProcessResult r = RecordMove(token, "ko-retake");
    EXPECT_EQ(r.exit, 2) << r.out;
    EXPECT_NE(r.out.find("FAILED_PRECONDITION"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("game 'ko-retake' was synced from venue 'tokyo'"), std::string::npos)
        << r.out;
  }
  EXPECT_EQ(FederationGames(), VenueGames());
  EXPECT_EQ(Verify().exit, 0);
}

// The server remembers which games it may write, so that an append asks
// nothing of the venue tables after its game's first: a game asked for
// before it existed is not remembered as writable, so once a venue syncs
// it, it is the venue's.
TEST_F(PushTest, AGameAskedForBeforeItsSyncIsTheVenuesAfterIt) {
  StartFederation();
  ProcessResult early = RecordMove(chief_token_, "ko-retake");
  EXPECT_EQ(early.exit, 2) << early.out;
  EXPECT_NE(early.out.find("NOT_FOUND"), std::string::npos) << early.out;
  SyncAll(VenueEvents(), 0);
  ProcessResult late = RecordMove(chief_token_, "ko-retake");
  EXPECT_EQ(late.exit, 2) << late.out;
  EXPECT_NE(late.out.find("game 'ko-retake' was synced from venue 'tokyo'"), std::string::npos)
      << late.out;
  EXPECT_EQ(FederationGames(), VenueGames());
}

TEST_F(PushTest, GamesPulledIntoTheDatabaseAreTheVenuesToo) {
  ProcessResult pulled = Sync();  // --to postgresql://, before any server
  ASSERT_EQ(pulled.exit, 0) << pulled.out;
  StartFederation();
  ProcessResult r = RecordMove(chief_token_, "ko-retake");
  EXPECT_EQ(r.exit, 2) << r.out;
  EXPECT_NE(r.out.find("was synced from venue 'tokyo'"), std::string::npos) << r.out;
  SyncAll(0, VenueEvents());
}

TEST_F(PushTest, AFederationServerOnSQLiteTakesThemAndKeepsThemTheVenues) {
  testing::TempDir sqlite{"arbiter-sqlite-federation"};
  StartFederation("", sqlite.path());
  ProcessResult r = Push();
  ASSERT_EQ(r.exit, 0) << r.out;
  EXPECT_NE(r.out.find(absl::StrCat("synced 5 game(s): ", VenueEvents(), " new event(s)")),
            std::string::npos)
      << r.out;
  ProcessResult refused = RecordMove(chief_token_, "ko-retake");
  EXPECT_EQ(refused.exit, 2) << refused.out;
  EXPECT_NE(refused.out.find("game 'ko-retake' was synced from venue 'tokyo'"), std::string::npos)
      << refused.out;
  server_->Stop();
  absl::StatusOr<LogReader> reader = LogReader::Open(sqlite.File("ledger.db"));
  ASSERT_TRUE(reader.ok()) << reader.status();
  EXPECT_EQ(ReadGames(*reader), VenueGames());
  ProcessResult verified = Arbiter({"verify", "--db", sqlite.path()});
  EXPECT_EQ(verified.exit, 0) << verified.out;
  EXPECT_NE(verified.out.find("venue proofs: 5 synced game(s)"), std::string::npos) << verified.out;
}

// Issue 44.4: a venue's tournaments travel with its games. The venue (as
// tests/data/upgrade/make.sh makes one, with today's server): a round robin
// `spring` of four, round 1 started, game spring-r1-b1 resigned by White,
// spring-r1-b2 in play. Synced into a federation on SQLite or on
// PostgreSQL, the federation's server answers `tournament standings
// --json` with the venue's bytes; a rerun carries nothing new; a
// correction made at the venue afterwards, and the end of the game in
// play, arrive as the new events, after which the standings agree again.
// The same through the federation's server (`sync --to ADDR`).
class TournamentSyncTest : public ::testing::TestWithParam<bool> {
 protected:
  // A command run against the venue's server; `resign`: it reads a
  // resignation by that colour on stdin, dated as it runs.
  struct Step {
    std::vector<std::string> args;
    const char* resign = nullptr;
  };
  // A resignation by `color`, dated now.
  static std::string Resign(const char* color) {
    return absl::StrCat("{\"at\": \"",
                        absl::FormatTime("%Y-%m-%dT%H:%M:%E6SZ", absl::Now(), absl::UTCTimeZone()),
                        "\", \"resign\": {\"color\": \"", color, "\"}}\n");
  }

  void SetUp() override {
    if (GetParam()) {
      absl::StatusOr<std::string> uri = testing::SharedPgCluster().NewDatabase();
      ASSERT_TRUE(uri.ok()) << uri.status();
      federation_ = *uri;
    } else {
      federation_ = federation_dir_.path();
    }
    chief_ = {{"ARBITER_TOKEN", testing::CreateToken(venue_.path(), "CHIEF_ARBITER", "director")}};
    ASSERT_FALSE(chief_[0].second.empty());
    venue_json_ = VenueStandings(
        {{{"tournament", "create", "--id", "spring", "--system", "round-robin", "--title",
           "Spring Open", "--player", "a:Li,Wei:3D", "--player", "b:Wang,Fang:2D", "--player",
           "c:Chen,Jie:1D", "--player", "d:Zhao,Min:1K"}},
         {{"tournament", "pair", "--round", "1", "spring", "--board", "a,b", "--board", "c,d"}},
         {{"tournament", "start-round", "--round", "1", "spring"}},
         {{"record", "--game", "spring-r1-b1", "-"}, "WHITE"}});
  }

  // `tournament standings --json spring` as the venue's server answers it
  // (the steps, if any, run against it first, with the chief arbiter's token).
  std::string VenueStandings(const std::vector<Step>& before = {}) {
    std::unique_ptr<testing::ServerProcess> server = testing::ServerProcess::Start(venue_.path());
    EXPECT_NE(server, nullptr);
    if (server == nullptr) return "";
    for (const Step& step : before) {
      ProcessResult r = testing::RunCli(step.args, step.resign ? Resign(step.resign) : "",
                                        server->address(), chief_);
      EXPECT_EQ(r.exit, 0) << step.args[1] << ": " << r.out << r.err;
    }
    ProcessResult r = testing::RunCli({"tournament", "standings", "--json", "spring"}, "",
                                      server->address(), chief_);
    EXPECT_EQ(r.exit, 0) << r.err;
    EXPECT_EQ(server->Stop(), 0) << server->log();  // it signs its tail as it stops
    return r.out;
  }
  // A server of the federation.
  std::unique_ptr<testing::ServerProcess> FederationServer(
      const std::vector<std::string>& flags = {}) {
    return GetParam() ? testing::ServerProcess::StartShared(federation_, state_.path(), flags)
                      : testing::ServerProcess::Start(federation_, flags);
  }
  // The same as the federation's server answers it.
  ProcessResult FederationStandings() {
    std::unique_ptr<testing::ServerProcess> server = FederationServer();
    EXPECT_NE(server, nullptr);
    if (server == nullptr) return ProcessResult{};
    return testing::RunCli({"tournament", "standings", "--json", "spring"}, "", server->address());
  }
  // The events of `spring` the venue's ledger holds.
  uint64_t VenueTournamentEvents() {
    absl::StatusOr<LogReader> reader = LogReader::Open(venue_.File("ledger.db"));
    EXPECT_TRUE(reader.ok()) << reader.status();
    if (!reader.ok()) return 0;
    absl::StatusOr<std::vector<v1::LedgerEntry>> events =
        reader->ReadGame("tournaments/spring", 0, 1 << 20);
    EXPECT_TRUE(events.ok()) << events.status();
    return events.ok() ? events->size() : 0;
  }
  ProcessResult Sync() {
    std::vector<std::string> args = {"sync", "--from", venue_.path(), "--to", federation_};
    if (GetParam()) {
      args.push_back("--state");
      args.push_back(state_.path());
    }
    return Arbiter(args);
  }

  testing::TempDir venue_{"arbiter-venue"};
  testing::TempDir federation_dir_{"arbiter-federation-data"};
  testing::TempDir state_{"arbiter-federation"};
  std::string federation_;
  std::vector<std::pair<std::string, std::string>> chief_;
  std::string venue_json_;  // the venue's standings once set up
  testing::TempDir other_dir_{"arbiter-federation-other"};
};

TEST_P(TournamentSyncTest, TheFederationsStandingsAreTheVenuesByteForByte) {
  const std::string& venue_json = venue_json_;
  ASSERT_NE(venue_json.find("\"name\":\"Li Wei\",\"points\":2"), std::string::npos) << venue_json;
  // created, four players, round 1 paired and started (and whatever the
  // server derived meanwhile).
  const uint64_t events = VenueTournamentEvents();
  ASSERT_GE(events, 7u);

  ProcessResult r = Sync();
  ASSERT_EQ(r.exit, 0) << r.out;
  EXPECT_NE(
      r.out.find(absl::StrCat("tournament 'spring': ", events, " new event(s), 0 already here")),
      std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("synced 2 game(s)"), std::string::npos) << r.out;
  ProcessResult standings = FederationStandings();
  ASSERT_EQ(standings.exit, 0) << standings.out << standings.err;
  EXPECT_EQ(standings.out, venue_json);

  // Again: nothing new, and every event is proven against the venue.
  r = Sync();
  ASSERT_EQ(r.exit, 0) << r.out;
  EXPECT_NE(
      r.out.find(absl::StrCat("tournament 'spring': 0 new event(s), ", events, " already here")),
      std::string::npos)
      << r.out;
  r = Arbiter({"verify", "--db", federation_});
  EXPECT_EQ(r.exit, 0) << r.out;
  EXPECT_NE(r.out.find("venue proofs: 2 synced game(s), 1 tournament(s), "), std::string::npos)
      << r.out;

  // At the venue: the game in play ends, and a player's rank is corrected.
  const std::string corrected =
      VenueStandings({{{"record", "--game", "spring-r1-b2", "-"}, "BLACK"},
                      {{"tournament", "update", "--player", "c", "--rank", "2D", "--reason",
                        "re-rated", "spring"}}});
  ASSERT_NE(corrected, venue_json);
  const uint64_t later = VenueTournamentEvents();
  ASSERT_GT(later, events);
  r = Sync();
  ASSERT_EQ(r.exit, 0) << r.out;
  EXPECT_NE(r.out.find(absl::StrCat("tournament 'spring': ", later - events, " new event(s), ",
                                    events, " already here")),
            std::string::npos)
      << r.out;
  standings = FederationStandings();
  ASSERT_EQ(standings.exit, 0) << standings.out << standings.err;
  EXPECT_EQ(standings.out, corrected);
  r = Arbiter({"verify", "--db", federation_});
  EXPECT_EQ(r.exit, 0) << r.out;
}

// A tournament id the federation recorded itself is not a venue's to fill:
// refused by name, nothing of it written.
TEST_P(TournamentSyncTest, ATournamentTheFederationRecordedItselfIsRefused) {
  // A fresh federation, its own `spring` created before any sync.
  if (GetParam()) {
    absl::StatusOr<std::string> uri = testing::SharedPgCluster().NewDatabase();
    ASSERT_TRUE(uri.ok()) << uri.status();
    federation_ = *uri;
  } else {
    federation_ = other_dir_.path();
  }
  {
    std::unique_ptr<testing::ServerProcess> server = FederationServer();
    ASSERT_NE(server, nullptr);
    ProcessResult r = testing::RunCli(
        {"tournament", "create", "--id", "spring", "--system", "round-robin", "--title",
         "Another Spring", "--player", "a:Sun,Yue:1D", "--player", "b:Ma,Lin:2D"},
        "", server->address());
    ASSERT_EQ(r.exit, 0) << r.out << r.err;
  }
  ProcessResult r = Sync();
  EXPECT_EQ(r.exit, 1) << r.out;
  EXPECT_NE(r.out.find("tournament 'spring': NOT synced: tournament 'spring' is the "
                       "federation's own"),
            std::string::npos)
      << r.out;
  ProcessResult standings = FederationStandings();
  EXPECT_NE(standings.out.find("Sun Yue"), std::string::npos) << standings.out;
  // Still the federation's own to write.
  std::unique_ptr<testing::ServerProcess> server = FederationServer();
  ASSERT_NE(server, nullptr);
  r = testing::RunCli(
      {"tournament", "update", "--player", "a", "--rank", "2D", "--reason", "re-rated", "spring"},
      "", server->address());
  EXPECT_EQ(r.exit, 0) << r.out << r.err;
}

// A synced tournament is the venue's record: the federation's own server
// refuses to write it (as it refuses a synced game), so every event stays
// covered by the venue's proofs and a later sync still finds its copy.
TEST_P(TournamentSyncTest, ASyncedTournamentIsWrittenByNobodyElse) {
  ASSERT_EQ(Sync().exit, 0);
  {
    std::unique_ptr<testing::ServerProcess> server = FederationServer();
    ASSERT_NE(server, nullptr);
    ProcessResult r = testing::RunCli(
        {"tournament", "update", "--player", "c", "--rank", "2D", "--reason", "re-rated", "spring"},
        "", server->address());
    EXPECT_EQ(r.exit, 2) << r.out << r.err;
    EXPECT_NE(r.err.find("tournament 'spring' was synced from venue"), std::string::npos) << r.err;
  }
  ProcessResult r = Arbiter({"verify", "--db", federation_});
  EXPECT_EQ(r.exit, 0) << r.out;
  r = Sync();
  EXPECT_EQ(r.exit, 0) << r.out;
}

// A venue's tournament that does not prove itself writes nothing of it:
// under another key than the venue's, or with an event altered after the
// venue signed it.
TEST_P(TournamentSyncTest, AVenueRecordThatDoesNotProveItselfWritesNoTournament) {
  testing::TempDir other{"arbiter-other-venue"};
  ASSERT_TRUE(LoadSigningKey(other.path()).ok());
  std::vector<std::string> args = {"sync",      "--from",         venue_.path(),           "--to",
                                   federation_, "--venue-pubkey", other.File("ledger.pub")};
  if (GetParam()) args.insert(args.end(), {"--state", state_.path()});
  ProcessResult r = Arbiter(args);
  EXPECT_EQ(r.exit, 1) << r.out;
  EXPECT_NE(r.out.find("tournament 'spring': NOT synced: the venue's record of tournament "
                       "'spring' does not prove itself"),
            std::string::npos)
      << r.out;
  {
    absl::StatusOr<Db> db = Db::Open(venue_.File("ledger.db"), SQLITE_OPEN_READWRITE);
    ASSERT_TRUE(db.ok()) << db.status();
    ASSERT_TRUE(db->Exec("DROP TRIGGER events_no_UPDATE;"
                         "UPDATE events SET event = CAST(event AS BLOB) || x'00' WHERE "
                         "game_id = 'tournaments/spring' AND revision = 2")
                    .ok());
  }
  r = Sync();
  EXPECT_EQ(r.exit, 1) << r.out;
  EXPECT_NE(r.out.find("tournament 'spring': NOT synced"), std::string::npos) << r.out;
  ProcessResult standings = FederationStandings();
  EXPECT_NE(standings.exit, 0) << standings.out;
  EXPECT_NE(standings.err.find("NOT_FOUND"), std::string::npos) << standings.err;
}

// From the venue's server (`sync --from ADDR`: ListTournaments, then
// ExportGame's BUNDLE of each) to the federation's (`--to ADDR`,
// SyncVenueGame with a VENUE token), once the round's games finished: the
// tournament arrives as through the databases, checked under the venue key
// the federation's server was started with; a rerun, from the venue's server
// or its directory, carries nothing new; a venue record altered after the
// venue signed it is refused by the server, nothing of it written.
TEST_P(TournamentSyncTest, FromTheVenuesServerThroughTheFederationsTheStandingsAreTheVenues) {
  const std::string finished =
      VenueStandings({{{"record", "--game", "spring-r1-b2", "-"}, "BLACK"}});
  ASSERT_NE(finished.find("\"name\":\"Zhao Min\",\"points\":2"), std::string::npos) << finished;
  const uint64_t events = VenueTournamentEvents();
  const std::string venue_token = testing::CreateToken(federation_, "VENUE", "tokyo sync");
  const std::string reader_token = testing::CreateToken(federation_, "AUDITOR", "federation");
  ASSERT_FALSE(venue_token.empty());
  ASSERT_FALSE(reader_token.empty());
  std::unique_ptr<testing::ServerProcess> server =
      FederationServer({"--venue-key", "tokyo=" + venue_.File("ledger.pub")});
  ASSERT_NE(server, nullptr);
  const auto standings = [&] {
    return testing::RunCli({"tournament", "standings", "--json", "spring"}, "", server->address(),
                           {{"ARBITER_TOKEN", reader_token}});
  };

  // The venue's bundle of the tournament, one event altered: refused.
  absl::StatusOr<LogReader> reader = LogReader::Open(venue_.File("ledger.db"));
  ASSERT_TRUE(reader.ok()) << reader.status();
  absl::StatusOr<v1::AuditBundle> bundle = ExportBundle(*reader, "tournaments/spring");
  ASSERT_TRUE(bundle.ok()) << bundle.status();
  ASSERT_EQ(bundle->entries_size(), static_cast<int>(events));
  bundle->mutable_entries(1)->mutable_entry()->mutable_event()->push_back('\0');
  std::unique_ptr<v1::Arbiter::Stub> stub = v1::Arbiter::NewStub(
      grpc::CreateChannel(server->address(), grpc::InsecureChannelCredentials()));
  grpc::ClientContext context;
  context.AddMetadata("authorization", "Bearer " + venue_token);
  v1::SyncVenueGameRequest req;
  *req.mutable_bundle() = *bundle;
  v1::SyncVenueGameResponse resp;
  grpc::Status refused = stub->SyncVenueGame(&context, req, &resp);
  EXPECT_EQ(refused.error_code(), grpc::StatusCode::DATA_LOSS) << refused.error_message();
  EXPECT_NE(refused.error_message().find("tournament 'spring' does not prove itself"),
            std::string::npos)
      << refused.error_message();
  ProcessResult none = standings();
  EXPECT_NE(none.err.find("NOT_FOUND"), std::string::npos) << none.out << none.err;

  // From the venue's server (an AUDITOR token there) to the federation's.
  const std::string auditor = testing::CreateToken(venue_.path(), "AUDITOR", "federation audit");
  ASSERT_FALSE(auditor.empty());
  std::unique_ptr<testing::ServerProcess> venue = testing::ServerProcess::Start(venue_.path());
  ASSERT_NE(venue, nullptr);
  const auto push = [&](const std::string& from) {
    return Arbiter({"sync", "--from", from, "--to", server->address()},
                   {{"ARBITER_TOKEN", auditor}, {"ARBITER_FEDERATION_TOKEN", venue_token}});
  };
  ProcessResult r = push(venue->address());
  ASSERT_EQ(r.exit, 0) << r.out;
  EXPECT_NE(r.out.find("synced 2 game(s)"), std::string::npos) << r.out;
  EXPECT_NE(
      r.out.find(absl::StrCat("tournament 'spring': ", events, " new event(s), 0 already here")),
      std::string::npos)
      << r.out;
  ProcessResult federation = standings();
  ASSERT_EQ(federation.exit, 0) << federation.out << federation.err;
  EXPECT_EQ(federation.out, finished);

  // Again, from the venue's server and then from its directory: nothing new.
  r = push(venue->address());
  ASSERT_EQ(r.exit, 0) << r.out;
  EXPECT_NE(
      r.out.find(absl::StrCat("tournament 'spring': 0 new event(s), ", events, " already here")),
      std::string::npos)
      << r.out;
  ASSERT_EQ(venue->Stop(), 0) << venue->log();
  r = push(venue_.path());
  ASSERT_EQ(r.exit, 0) << r.out;
  EXPECT_NE(
      r.out.find(absl::StrCat("tournament 'spring': 0 new event(s), ", events, " already here")),
      std::string::npos)
      << r.out;
  federation = standings();
  EXPECT_EQ(federation.out, finished);
  ASSERT_EQ(server->Stop(), 0) << server->log();
  r = Arbiter({"verify", "--db", federation_});
  EXPECT_EQ(r.exit, 0) << r.out;
  EXPECT_NE(r.out.find("venue proofs: 2 synced game(s), 1 tournament(s), "), std::string::npos)
      << r.out;
}

INSTANTIATE_TEST_SUITE_P(Federations, TournamentSyncTest, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool>& p) {
                           return p.param ? "PostgreSQL" : "SQLite";
                         });

}  // namespace
}  // namespace arbiter::ledger
