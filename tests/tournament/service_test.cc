// TournamentService over its store (the ledger's tournament streams), with the games' facts
// supplied by hand: recording, validation, status codes, persistence and standings.
#include "adjudicator/service/tournament_service.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "adjudicator/judge/adjudicator_judge.h"
#include "adjudicator/service/tournament_store.h"
#include "adjudicator/tournament/export_checkpoint.h"
#include "gmock/gmock.h"
#include "google/protobuf/util/json_util.h"
#include "grpcpp/server_context.h"
#include "gtest/gtest.h"
#include "tests/support/temp_dir.h"
#include "tests/tournament/builders.h"

namespace arbiter::tournament {
namespace {

using ::testing::HasSubstr;

class Service : public ::testing::Test {
 protected:
  void SetUp() override { Open(); }
  void TearDown() override {
    service_.reset();
    store_.reset();
    ledger_.reset();
  }
  void Open() {
    service_.reset();
    store_.reset();
    ledger_.reset();
    ledger::LedgerOptions o;
    o.dir = dir_.path();
    o.judge = &judge_;
    absl::StatusOr<std::unique_ptr<ledger::Ledger>> l = ledger::Ledger::Open(o);
    ASSERT_TRUE(l.ok()) << l.status();
    ledger_ = *std::move(l);
    absl::StatusOr<std::unique_ptr<TournamentStore>> s =
        TournamentStore::Open(ledger_.get(), dir_.path());
    ASSERT_TRUE(s.ok()) << s.status();
    store_ = *std::move(s);
    service_ = std::make_unique<TournamentServiceImpl>(
        store_.get(),
        [this](const std::string& id) -> absl::StatusOr<GameFacts> {
          auto it = games_.find(id);
          if (it == games_.end()) return absl::NotFoundError("no game " + id);
          return it->second;
        },
        &callers_, [] { return absl::FromUnixSeconds(1800000000); });
    // Called directly, not through a server: the call is admitted here as
    // the interceptor admits a call to an open server.
    callers_.Set(&ctx_, callers_.NewCall(), service::Caller());
  }
  grpc::Status Create() {
    v1::CreateTournamentRequest req;
    req.mutable_tournament()->set_tournament_id("cup");
    req.mutable_tournament()->set_title("Cup");
    req.mutable_tournament()->mutable_settings()->set_system(v1::TournamentSettings::ROUND_ROBIN);
    for (const char* id : {"A", "B", "C", "D"}) {
      v1::TournamentPlayer* p = req.add_players();
      p->set_id(id);
      p->set_name(id);
      p->set_first_name("Player");
    }
    v1::Tournament t;
    return service_->CreateTournament(&ctx_, &req, &t);
  }
  grpc::Status Pair(int round, std::vector<testing::Board> boards) {
    v1::PairRoundRequest req;
    req.set_tournament("tournaments/cup");
    req.mutable_round()->set_round(round);
    int n = 0;
    for (const testing::Board& b : boards) {
      v1::Pairing* p = req.mutable_round()->add_pairings();
      p->set_board(++n);
      p->set_black(b.black);
      p->set_white(b.white);
      p->set_game_id(b.game);
    }
    v1::Tournament t;
    return service_->PairRound(&ctx_, &req, &t);
  }
  static v1::ScheduleReplayRequest ReplayOfRound1Board1(const std::string& game) {
    v1::ScheduleReplayRequest req;
    req.set_tournament("tournaments/cup");
    req.mutable_replay()->set_round(1);
    req.mutable_replay()->set_board(1);
    req.mutable_replay()->set_game_id(game);
    return req;
  }
  v1::StandingsReport Standings() {
    v1::GetStandingsRequest req;
    req.set_tournament("tournaments/cup");
    v1::StandingsReport r;
    grpc::Status s = service_->GetStandings(&ctx_, &req, &r);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return r;
  }

  ::arbiter::testing::TempDir dir_{"tournament-service-test"};
  AdjudicatorJudge judge_;
  std::unique_ptr<ledger::Ledger> ledger_;
  std::unique_ptr<TournamentStore> store_;
  std::unique_ptr<TournamentServiceImpl> service_;
  GameFactsMap games_;
  grpc::ServerContext ctx_;
  service::Callers callers_;
};

TEST_F(Service, CreatePairStandingsAndPersistence) {
  ASSERT_TRUE(Create().ok());
  EXPECT_EQ(Create().error_code(), grpc::StatusCode::ALREADY_EXISTS);
  ASSERT_TRUE(Pair(1, {{"A", "B", "G1"}, {"C", "D", "G2"}}).ok());
  games_["G1"] = testing::Decided(v1::Result::WHITE_WINS);
  // G2 not yet in the ledger: pending. B 2 points, the rest 0.
  v1::StandingsReport r = Standings();
  EXPECT_EQ(testing::Row(r.standings(), "B").points(), 2);
  EXPECT_EQ(r.pairings(1).status(), v1::ScoredPairing::PENDING);

  // Reopened from disk: the same tournament, stamped with the service's clock.
  Open();
  v1::GetTournamentRequest get;
  get.set_name("tournaments/cup");
  v1::Tournament t;
  ASSERT_TRUE(service_->GetTournament(&ctx_, &get, &t).ok());
  EXPECT_EQ(t.revision(), 6u);  // created, 4 players, round 1
  EXPECT_EQ(t.rounds(0).pairings(1).game_id(), "G2");
  absl::StatusOr<std::vector<v1::TournamentEvent>> events = store_->Load("cup");
  ASSERT_TRUE(events.ok());
  EXPECT_EQ((*events)[0].at().seconds(), 1800000000);
}

// Issue 44.1: a tournament pins the standings rules it is scored under at
// its creation, as a game pins its rules: the current version, recorded in
// its created event.
TEST_F(Service, ANewTournamentPinsTheCurrentStandingsRules) {
  ASSERT_TRUE(Create().ok());
  absl::StatusOr<std::vector<v1::TournamentEvent>> events = store_->Load("cup");
  ASSERT_TRUE(events.ok()) << events.status();
  EXPECT_EQ((*events)[0].created().standings_rules(), "tournament-2026.3");
  v1::GetTournamentRequest get;
  get.set_name("tournaments/cup");
  v1::Tournament t;
  ASSERT_TRUE(service_->GetTournament(&ctx_, &get, &t).ok());
  EXPECT_EQ(t.standings_rules(), "tournament-2026.3");
}

TEST_F(Service, BadRequestsAreRefusedAndNothingIsRecorded) {
  ASSERT_TRUE(Create().ok());
  grpc::Status s = Pair(1, {{"A", "Z", "G1"}});
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(s.error_message(), HasSubstr("no player 'Z'"));
  ASSERT_TRUE(Pair(1, {{"A", "B", "G1"}}).ok());
  EXPECT_EQ(Pair(1, {{"C", "D", "G2"}}).error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_THAT(Pair(2, {{"C", "D", "G1"}}).error_message(),
              HasSubstr("already decides another pairing"));
  absl::StatusOr<std::vector<v1::TournamentEvent>> events = store_->Load("cup");
  ASSERT_TRUE(events.ok());
  EXPECT_EQ(events->size(), 6u);

  v1::GetStandingsRequest unknown;
  unknown.set_tournament("tournaments/nope");
  v1::StandingsReport r;
  EXPECT_EQ(service_->GetStandings(&ctx_, &unknown, &r).error_code(), grpc::StatusCode::NOT_FOUND);
  unknown.set_tournament("tournaments/a b");
  EXPECT_EQ(service_->GetStandings(&ctx_, &unknown, &r).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
}

// The ruleset a tournament names decides its withdrawal rules and the
// exports' rules of play: a name that is no ruleset is refused at creation.
TEST_F(Service, ATournamentsRulesetIsOneOfTheRulesets) {
  v1::CreateTournamentRequest req;
  req.mutable_tournament()->set_tournament_id("typo");
  req.mutable_tournament()->set_title("Cup");
  req.mutable_tournament()->mutable_settings()->set_system(v1::TournamentSettings::ROUND_ROBIN);
  req.mutable_tournament()->mutable_settings()->set_ruleset("cn2002");
  v1::Tournament t;
  grpc::Status s = service_->CreateTournament(&ctx_, &req, &t);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(s.error_message(),
            "settings.ruleset: \"cn2002\" is not a ruleset; cn-2002 (the default) or cn-1988");
  EXPECT_FALSE(store_->Load("typo").ok());
  req.mutable_tournament()->mutable_settings()->set_ruleset("cn-1988");
  EXPECT_TRUE(service_->CreateTournament(&ctx_, &req, &t).ok());
}

// A player's names are one line each (names.h CheckNamesEntered): a tab,
// CR or LF (or any control character) is refused where it is entered,
// naming the player and the field, and nothing is recorded; the games
// StartRound creates would carry it, and CreateGame refuses it.
TEST_F(Service, ANameWithALineBreakIsRefusedWhereEntered) {
  ASSERT_TRUE(Create().ok());
  const auto add = [&](const std::string& field, const std::string& text) {
    v1::AddPlayersRequest req;
    req.set_tournament("tournaments/cup");
    v1::TournamentPlayer* p = req.add_players();
    p->set_id("E");
    p->set_name("Li");
    p->set_first_name("Wei");
    p->set_rank("3D");
    if (field == "name") p->set_name(text);
    if (field == "firstName") p->set_first_name(text);
    if (field == "romanizedFamilyName") p->set_romanized_family_name(text);
    if (field == "club") p->set_club(text);
    v1::Tournament t;
    return service_->AddPlayers(&ctx_, &req, &t);
  };
  for (const auto& [field, text] :
       std::vector<std::pair<std::string, std::string>>{{"name", "Li\nRESULT: W+R"},
                                                        {"firstName", "Wei\t"},
                                                        {"romanizedFamilyName", "Li\r"},
                                                        {"club", "Bei\x7f"}}) {
    const grpc::Status s = add(field, text);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << field;
    EXPECT_THAT(s.error_message(),
                HasSubstr(absl::StrCat("player 'E': ", field, " holds a control character")));
  }
  // A correction of the record is checked alike.
  v1::CorrectTournamentRequest fix;
  fix.set_tournament("tournaments/cup");
  fix.mutable_correction()->set_reason("name");
  v1::TournamentPlayer* p = fix.mutable_correction()->mutable_player_updated()->mutable_player();
  p->set_id("A");
  p->set_name("A\nB");
  p->set_first_name("Player");
  v1::Tournament t;
  const grpc::Status s = service_->CorrectTournament(&ctx_, &fix, &t);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(s.error_message(), HasSubstr("player 'A': name holds a control character (U+000A"));
  absl::StatusOr<std::vector<v1::TournamentEvent>> events = store_->Load("cup");
  ASSERT_TRUE(events.ok());
  EXPECT_EQ(events->size(), 1u + 4u);   // created, A-D: nothing of the refused
  EXPECT_TRUE(add("name", "李").ok());  // a name in another script is a name
}

// A rank is 30K to 1K, 1D to 9D or 1P to 9P (ranks.h), the scale the EGD's
// table and OpenGotha's Player hold; anything else is refused where it is
// entered, naming the player and the rank, and nothing is recorded.
TEST_F(Service, RanksThatAreNotRanksAreRefusedWhereEntered) {
  ASSERT_TRUE(Create().ok());
  for (const char* bad : {"5X", "0D", "10D", "31K", "0K", "05K", "5 k", "5"}) {
    v1::AddPlayersRequest add;
    add.set_tournament("tournaments/cup");
    v1::TournamentPlayer* p = add.add_players();
    p->set_id("E");
    p->set_name("Li");
    p->set_first_name("Wei");
    p->set_rank(bad);
    v1::Tournament t;
    grpc::Status s = service_->AddPlayers(&ctx_, &add, &t);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << bad;
    EXPECT_EQ(s.error_message(), absl::StrCat("player 'E' (Li Wei): rank \"", bad,
                                              "\" is not a rank; a rank is 30K to 1K, 1D to 9D "
                                              "or 1P to 9P (K, D, P in either case)"));
  }
  for (const char* good : {"30K", "1k", "1D", "9d", "9P"}) {
    v1::AddPlayersRequest add;
    add.set_tournament("tournaments/cup");
    v1::TournamentPlayer* p = add.add_players();
    p->set_id(absl::StrCat("R", good));
    p->set_name("Li");
    p->set_rank(good);
    v1::Tournament t;
    EXPECT_TRUE(service_->AddPlayers(&ctx_, &add, &t).ok()) << good;
  }
  // A correction of the record is checked alike.
  v1::CorrectTournamentRequest fix;
  fix.set_tournament("tournaments/cup");
  fix.mutable_correction()->set_reason("rank");
  v1::TournamentPlayer* p = fix.mutable_correction()->mutable_player_updated()->mutable_player();
  p->set_id("A");
  p->set_name("A");
  p->set_first_name("Player");
  p->set_rank("0K");
  v1::Tournament t;
  grpc::Status s = service_->CorrectTournament(&ctx_, &fix, &t);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(s.error_message(), HasSubstr("player 'A' (A Player): rank \"0K\" is not a rank"));
  // An OpenGotha file's rank, an empty one too (OpenGotha reads none).
  for (const char* bad : {"5X", ""}) {
    v1::ImportTournamentRequest req;
    req.set_tournament_id("og");
    req.set_opengotha_xml(
        absl::StrCat("<Tournament><Players>\n<Player name=\"Li\" firstName=\"Wei\" rank=\"", bad,
                     "\"/></Players></Tournament>"));
    s = service_->ImportTournament(&ctx_, &req, &t);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    EXPECT_THAT(s.error_message(), HasSubstr("line 2: <Player>: player Li Wei"));
    EXPECT_THAT(s.error_message(), HasSubstr("30K to 1K, 1D to 9D or 1P to 9P"));
  }
  absl::StatusOr<std::vector<v1::TournamentEvent>> events = store_->Load("cup");
  ASSERT_TRUE(events.ok());
  EXPECT_EQ(events->size(), 1u + 4u + 5u);  // created, A-D, the five good ranks
  EXPECT_EQ(store_->Load("og").status().code(), absl::StatusCode::kNotFound);
}

TEST_F(Service, ReplayOnlyAfterAReplayResult) {
  ASSERT_TRUE(Create().ok());
  ASSERT_TRUE(Pair(1, {{"A", "B", "G1"}}).ok());
  games_["G1"] = testing::Decided(v1::Result::DRAW);
  const v1::ScheduleReplayRequest req = ReplayOfRound1Board1("G1b");
  v1::Tournament t;
  EXPECT_EQ(service_->ScheduleReplay(&ctx_, &req, &t).error_code(),
            grpc::StatusCode::FAILED_PRECONDITION);
  games_["G1"] = testing::Decided(v1::Result::REPLAY, v1::Result::ARBITER);
  ASSERT_TRUE(service_->ScheduleReplay(&ctx_, &req, &t).ok());
  EXPECT_EQ(t.rounds(0).pairings(0).game_id(), "G1b");
  games_["G1b"] = testing::Decided(v1::Result::BLACK_WINS);
  EXPECT_EQ(testing::Row(Standings().standings(), "A").points(), 2);
}

// A game already in the ledger is attached to a pairing only if it was
// played by the paired players in the paired colours (recorded by id or
// name); otherwise the pairing, or the replay, is refused and nothing is
// recorded.
TEST_F(Service, AGameRecordedWithOtherPlayersOrColoursIsNotAttached) {
  ASSERT_TRUE(Create().ok());
  games_["G1"] = testing::Decided(v1::Result::BLACK_WINS);
  games_["G1"].recorded_black = "B Player";  // B's name, as Black
  games_["G1"].recorded_white = "A";         // A's id, as White
  grpc::Status s = Pair(1, {{"A", "B", "G1"}});
  EXPECT_EQ(s.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_THAT(s.error_message(), HasSubstr("game G1 was recorded as 'B Player' (Black) v 'A' "
                                           "(White), but the pairing is A (Black) v B (White): "
                                           "the colours differ"));
  EXPECT_THAT(Pair(1, {{"C", "A", "G1"}}).error_message(), HasSubstr("the players differ"));
  absl::StatusOr<std::vector<v1::TournamentEvent>> events = store_->Load("cup");
  ASSERT_TRUE(events.ok());
  EXPECT_EQ(events->size(), 5u) << "nothing recorded";
  // Bad input is still named as such before the game is looked at.
  EXPECT_THAT(Pair(1, {{"A", "Z", "G1"}}).error_message(), HasSubstr("no player 'Z'"));

  ASSERT_TRUE(Pair(1, {{"B", "A", "G1"}}).ok());
  EXPECT_EQ(testing::Row(Standings().standings(), "B").points(), 2);

  // The replay's game is checked as the game it replays.
  games_["G1"].result = testing::Decided(v1::Result::REPLAY, v1::Result::ARBITER).result;
  games_["G1b"] = testing::Decided(v1::Result::WHITE_WINS);
  games_["G1b"].recorded_black = "A Player";
  games_["G1b"].recorded_white = "B Player";
  const v1::ScheduleReplayRequest req = ReplayOfRound1Board1("G1b");
  v1::Tournament t;
  s = service_->ScheduleReplay(&ctx_, &req, &t);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_THAT(s.error_message(), HasSubstr("the colours differ"));
  std::swap(games_["G1b"].recorded_black, games_["G1b"].recorded_white);
  ASSERT_TRUE(service_->ScheduleReplay(&ctx_, &req, &t).ok()) << "B (Black) v A (White)";
  EXPECT_EQ(testing::Row(Standings().standings(), "A").points(), 2);
}

TEST_F(Service, ExportCarriesTheSidecar) {
  ASSERT_TRUE(Create().ok());
  ASSERT_TRUE(Pair(1, {{"A", "B", "G1"}, {"C", "D", "G2"}}).ok());
  // An export is derived from the log (tournament_at.h), so G1 is recorded
  // there: White arrives 15 min 1 s late, Black wins by lateness (22.2).
  std::vector<v1::Event> g1(4);
  for (auto [event, json] :
       {std::pair{&g1[0], R"({"at": "2026-05-01T09:00:00Z", "gameCreated": {"gameId": "G1",
              "ruleset": "cn-2002", "boardSize": 19, "black": {"name": "A"},
              "white": {"name": "B"}, "venue": "SAME_SITE",
              "scheduledStart": "2026-05-01T09:00:00Z", "timeControl": {"mainTime": "3600s"}}})"},
        std::pair{&g1[1],
                  R"({"at": "2026-05-01T09:00:00Z", "gameStarted": {"absent": ["WHITE"]}})"},
        std::pair{&g1[2],
                  R"({"at": "2026-05-01T09:00:10Z", "move": {"color": "BLACK", "point": "Q16"}})"},
        std::pair{&g1[3],
                  R"({"at": "2026-05-01T09:15:01Z", "playerArrived": {"color": "WHITE"}})"}}) {
    ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(json, event).ok()) << json;
  }
  ASSERT_TRUE(ledger_
                  ->AppendAndWait(
                      ledger::AppendRequest::Game("G1", ledger::ExpectedRevision::NoStream(), g1))
                  .ok());
  v1::ExportTournamentRequest req;
  req.set_tournament("tournaments/cup");
  req.set_format(v1::ExportTournamentRequest::OPENGOTHA_XML);
  v1::ExportTournamentResponse resp;
  ASSERT_TRUE(service_->ExportTournament(&ctx_, &req, &resp).ok());
  EXPECT_THAT(resp.content(), HasSubstr("RESULT_BLACKWINS_BYDEF"));
  // The file names the record it came from: the stream, and a checkpoint
  // signed for it at the head, so covering every event it read.
  EXPECT_THAT(resp.content(), HasSubstr("<!-- derived from tournaments/cup at checkpoint "));
  absl::StatusOr<NamedRecord> named = ReadNamedRecord(resp.content());
  ASSERT_TRUE(named.ok()) << named.status();
  EXPECT_EQ(named->checkpoint.tree_size(), *ledger_->log().Head());
  EXPECT_EQ(named->checkpoint.origin(), ledger_->identity().origin());
  absl::StatusOr<std::optional<v1::Checkpoint>> signed_one =
      ledger_->checkpoint_index().OfSize(*ledger_->log().Head());
  ASSERT_TRUE(signed_one.ok() && signed_one->has_value());
  EXPECT_EQ(resp.filename(), "cup.xml");
  EXPECT_EQ(resp.sidecar().entries().at("games/G1/rulings/1").reason(), v1::Result::LATENESS);
  EXPECT_THAT(resp.sidecar_json(), HasSubstr("games/G1/rulings/1"));
  req.set_format(v1::ExportTournamentRequest::FORMAT_UNSPECIFIED);
  EXPECT_EQ(service_->ExportTournament(&ctx_, &req, &resp).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
  // A file the format cannot hold is refused, saying why.
  req.set_format(v1::ExportTournamentRequest::EGD_H9);
  grpc::Status s = service_->ExportTournament(&ctx_, &req, &resp);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_THAT(s.error_message(), HasSubstr("EGF class"));
}

TEST_F(Service, StoreRefusesAStaleRevision) {
  ASSERT_TRUE(Create().ok());
  v1::TournamentEvent e;
  e.mutable_player_withdrawn()->set_player("A");
  absl::Status s = store_->Append("cup", 3, {e});
  EXPECT_EQ(s.code(), absl::StatusCode::kAborted);
  EXPECT_THAT(s.message(), HasSubstr("at revision 5"));
}

TEST_F(Service, ImportOpenGothaFile) {
  v1::ImportTournamentRequest req;
  req.set_tournament_id("og");
  req.set_opengotha_xml(
      "<Tournament><Players><Player name=\"A\" firstName=\"x\"/><Player name=\"B\" "
      "firstName=\"y\"/></Players>"
      "<Games><Game roundNumber=\"1\" tableNumber=\"1\" blackPlayer=\"AX\" whitePlayer=\"BY\" "
      "result=\"RESULT_BLACKWINS\"/></Games></Tournament>");
  v1::Tournament t;
  grpc::Status imported = service_->ImportTournament(&ctx_, &req, &t);
  ASSERT_TRUE(imported.ok()) << imported.error_message();
  EXPECT_EQ(t.rounds(0).pairings(0).entered_outcome(), v1::Result::BLACK_WINS);
  EXPECT_EQ(service_->ImportTournament(&ctx_, &req, &t).error_code(),
            grpc::StatusCode::ALREADY_EXISTS);
  req.set_tournament_id("og2");
  req.set_opengotha_xml("<Tournament>");
  grpc::Status s = service_->ImportTournament(&ctx_, &req, &t);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(s.error_message(), HasSubstr("line 1"));
}

}  // namespace
}  // namespace arbiter::tournament
