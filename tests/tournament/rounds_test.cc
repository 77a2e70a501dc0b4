// Rounds as the hall plays them, through a real `arbiter serve`, the CLI
// and a gRPC client: `tournament start-round` creates every board's game
// once (players, ranks, table, ruleset, time control, venue) and attaches
// it; `tournament import-round` pairs a round from an OpenGotha file into
// an existing tournament; and their refusals, which write nothing.
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "arbiter/v1/service.grpc.pb.h"
#include "arbiter/v1/tournament.grpc.pb.h"
#include "gmock/gmock.h"
#include "google/protobuf/util/json_util.h"
#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "tests/support/arbiter_process.h"
#include "tests/support/paths.h"
#include "tests/support/temp_dir.h"

namespace arbiter {
namespace {

using ::testing::HasSubstr;
using testing::ProcessResult;

class Rounds : public ::testing::Test {
 protected:
  void SetUp() override {
    server_ = testing::ServerProcess::Start(dir_.File("data"));
    ASSERT_NE(server_, nullptr);
    chief_ = testing::CreateToken(dir_.File("data"), "CHIEF_ARBITER", "chief");
    arbiter_ = testing::CreateToken(dir_.File("data"), "ARBITER", "floor");
    ASSERT_FALSE(chief_.empty());
    ASSERT_FALSE(arbiter_.empty());
    channel_ = grpc::CreateChannel(server_->address(), grpc::InsecureChannelCredentials());
  }

  // `arbiter ARGS...` against the server as `token` (the chief by default).
  ProcessResult Cli(std::vector<std::string> args, const std::string& token = "") {
    return testing::RunCli(args, "", server_->address(),
                           {{"ARBITER_TOKEN", token.empty() ? chief_ : token}});
  }

  void Ok(std::vector<std::string> args) {
    ProcessResult r = Cli(std::move(args));
    ASSERT_EQ(r.exit, 0) << r.err;
  }

  // `tournament start-round ID --round N --json`, read back.
  v1::StartRoundResponse StartRound(const std::string& id, int round) {
    ProcessResult r =
        Cli({"tournament", "start-round", id, "--round", std::to_string(round), "--json"});
    EXPECT_EQ(r.exit, 0) << r.err;
    v1::StartRoundResponse out;
    EXPECT_TRUE(google::protobuf::util::JsonStringToMessage(r.out, &out).ok()) << r.out;
    return out;
  }

  grpc::Status GetGame(const std::string& id, v1::Game* game) {
    grpc::ClientContext ctx;
    ctx.AddMetadata("authorization", "Bearer " + chief_);
    v1::GetGameRequest req;
    req.set_name("games/" + id);
    return v1::Arbiter::NewStub(channel_)->GetGame(&ctx, req, game);
  }

  v1::Tournament Show(const std::string& id) {
    grpc::ClientContext ctx;
    ctx.AddMetadata("authorization", "Bearer " + chief_);
    v1::GetTournamentRequest req;
    req.set_name("tournaments/" + id);
    v1::Tournament t;
    grpc::Status s = v1::TournamentService::NewStub(channel_)->GetTournament(&ctx, req, &t);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return t;
  }

  grpc::Status StartRoundRpc(const std::string& token, const std::string& id, int round,
                             v1::StartRoundResponse* out) {
    grpc::ClientContext ctx;
    ctx.AddMetadata("authorization", "Bearer " + token);
    v1::StartRoundRequest req;
    req.set_tournament("tournaments/" + id);
    req.set_round(round);
    return v1::TournamentService::NewStub(channel_)->StartRound(&ctx, req, out);
  }

  // A Swiss event of four, whose games are cn-1988, 1h + 3 x 30 s byo-yomi,
  // venue and lodging apart (22.1).
  void CreateCup() {
    Ok({"tournament", "create",        "--id",        "cup",
        "--system",   "swiss",         "--rounds",    "4",
        "--ruleset",  "cn-1988",       "--main-time", "1h",
        "--byo-yomi", "3/30s",         "--venue",     "SEPARATE_SITE",
        "--player",   "A:李,伟:5D",    "--player",    "B:Wang,Ming:4D",
        "--player",   "C:Chen,Jie:1K", "--player",    "D:Zhou,Yu:2K"});
  }

  testing::TempDir dir_{"tournament-rounds"};
  std::unique_ptr<testing::ServerProcess> server_;
  std::string chief_, arbiter_;
  std::shared_ptr<grpc::Channel> channel_;
};

TEST_F(Rounds, StartRoundCreatesEachBoardsGameOnceAndAttachesIt) {
  CreateCup();
  Ok({"tournament", "pair", "cup", "--round", "1", "--board", "A,B", "--board", "D,C"});

  v1::StartRoundResponse first = StartRound("cup", 1);
  ASSERT_EQ(first.tables_size(), 2);
  EXPECT_EQ(first.tables(0).board(), 1);
  EXPECT_EQ(first.tables(0).game_id(), "cup-r1-b1");
  EXPECT_TRUE(first.tables(0).created());
  EXPECT_EQ(first.tables(1).game_id(), "cup-r1-b2");
  EXPECT_TRUE(first.tables(1).created());

  // Each game as the ledger has it: the pairing's players in its colours,
  // their ranks, the board as the table, the tournament's settings.
  v1::Game g1, g2;
  ASSERT_TRUE(GetGame("cup-r1-b1", &g1).ok());
  ASSERT_TRUE(GetGame("cup-r1-b2", &g2).ok());
  EXPECT_EQ(g1.created().black().name(), "李伟");
  EXPECT_EQ(g1.created().black().rank(), "5d");
  EXPECT_EQ(g1.created().white().name(), "Wang Ming");
  EXPECT_EQ(g1.created().white().rank(), "4d");
  EXPECT_EQ(g1.created().table(), 1u);
  EXPECT_EQ(g2.created().black().name(), "Zhou Yu");
  EXPECT_EQ(g2.created().white().name(), "Chen Jie");
  EXPECT_EQ(g2.created().table(), 2u);
  for (const v1::Game* g : {&g1, &g2}) {
    EXPECT_EQ(g->created().ruleset(), "cn-1988");
    EXPECT_EQ(g->created().venue(), v1::GameCreated::SEPARATE_SITE);
    EXPECT_EQ(g->created().time_control().main_time().seconds(), 3600);
    EXPECT_EQ(g->created().time_control().byo_yomi().periods(), 3);
    EXPECT_EQ(g->created().time_control().byo_yomi().period_time().seconds(), 30);
    EXPECT_EQ(g->revision(), 1u);
  }
  // Attached: each pairing names its game.
  v1::Tournament t = Show("cup");
  ASSERT_EQ(t.rounds_size(), 1);
  EXPECT_EQ(t.rounds(0).pairings(0).game_id(), "cup-r1-b1");
  EXPECT_EQ(t.rounds(0).pairings(1).game_id(), "cup-r1-b2");
  const uint64_t revision = t.revision();

  // Again, by the CLI and by gRPC: the same games, none created, nothing
  // written.
  v1::StartRoundResponse second = StartRound("cup", 1);
  ASSERT_EQ(second.tables_size(), 2);
  for (int i = 0; i < 2; ++i) {
    EXPECT_EQ(second.tables(i).game_id(), first.tables(i).game_id());
    EXPECT_FALSE(second.tables(i).created());
  }
  v1::StartRoundResponse third;
  grpc::Status s = StartRoundRpc(chief_, "cup", 1, &third);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(third.tables(1).game_id(), "cup-r1-b2");
  EXPECT_FALSE(third.tables(1).created());
  EXPECT_EQ(Show("cup").revision(), revision);
  ASSERT_TRUE(GetGame("cup-r1-b1", &g1).ok());
  EXPECT_EQ(g1.revision(), 1u);

  // The text output says the same.
  ProcessResult text = Cli({"tournament", "start-round", "cup", "--round", "1"});
  EXPECT_EQ(text.exit, 0) << text.err;
  EXPECT_THAT(text.out, HasSubstr("0 game(s) created, 2 already there"));
}

// DOMAIN.md 3.4: a board paired with a game id keeps it; a start creates
// that game, as it creates a board's own, when the ledger has none yet, so
// the board's game exists to be shown and played.
TEST_F(Rounds, ABoardThatNamesItsGameGetsItCreatedUnderThatName) {
  CreateCup();
  Ok({"tournament", "pair", "cup", "--round", "1", "--board", "A,B,own-game", "--board", "C,D"});
  v1::StartRoundResponse r = StartRound("cup", 1);
  ASSERT_EQ(r.tables_size(), 2);
  EXPECT_EQ(r.tables(0).game_id(), "own-game");
  EXPECT_TRUE(r.tables(0).created());
  EXPECT_EQ(r.tables(1).game_id(), "cup-r1-b2");
  EXPECT_TRUE(r.tables(1).created());

  // The game under the pairing's name, with the pairing's players in its
  // colours and the tournament's settings, and the board still names it.
  v1::Game g;
  ASSERT_TRUE(GetGame("own-game", &g).ok());
  EXPECT_EQ(g.created().black().name(), "李伟");
  EXPECT_EQ(g.created().black().rank(), "5d");
  EXPECT_EQ(g.created().white().name(), "Wang Ming");
  EXPECT_EQ(g.created().table(), 1u);
  EXPECT_EQ(g.created().ruleset(), "cn-1988");
  EXPECT_EQ(g.created().time_control().main_time().seconds(), 3600);
  EXPECT_EQ(Show("cup").rounds(0).pairings(0).game_id(), "own-game");
  ProcessResult show = Cli({"show", "own-game"});
  EXPECT_EQ(show.exit, 0) << show.err;

  // Again: both stand, none created, nothing written.
  const uint64_t revision = Show("cup").revision();
  ProcessResult text = Cli({"tournament", "start-round", "cup", "--round", "1"});
  EXPECT_EQ(text.exit, 0) << text.err;
  EXPECT_THAT(text.out, HasSubstr("table 1  own-game  already there"));
  EXPECT_THAT(text.out, HasSubstr("0 game(s) created, 2 already there"));
  EXPECT_EQ(Show("cup").revision(), revision);
  ASSERT_TRUE(GetGame("own-game", &g).ok());
  EXPECT_EQ(g.revision(), 1u);
}

// A game named at pairing that the ledger holds between other players (here
// board 2's, created by hand after the pairing) is not this board's: the
// start is refused, naming it, and writes nothing.
TEST_F(Rounds, ANamedGameThatIsAnotherBoardsIsRefused) {
  CreateCup();
  Ok({"tournament", "pair", "cup", "--round", "1", "--board", "A,B,hall-7", "--board", "D,C"});
  Ok({"game", "create", "--id", "hall-7", "--black", "Zhou Yu,2k", "--white", "Chen Jie,1k"});
  const uint64_t revision = Show("cup").revision();
  ProcessResult r = Cli({"tournament", "start-round", "cup", "--round", "1"});
  EXPECT_EQ(r.exit, 2) << r.out;
  EXPECT_THAT(r.err, HasSubstr("round 1 board 1: game 'hall-7' exists and is not this board's"));
  v1::Game g;
  EXPECT_EQ(GetGame("cup-r1-b2", &g).error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(Show("cup").revision(), revision);
}

TEST_F(Rounds, AClashWithAnotherGameIsRefusedAndNothingIsWritten) {
  CreateCup();
  // A game under board 2's id, between other players.
  Ok({"game", "create", "--id", "cup-r1-b2", "--black", "Xu Hao,3d", "--white", "Sun Li,3d"});
  Ok({"tournament", "pair", "cup", "--round", "1", "--board", "A,B", "--board", "C,D"});
  const uint64_t revision = Show("cup").revision();
  ProcessResult r = Cli({"tournament", "start-round", "cup", "--round", "1"});
  EXPECT_EQ(r.exit, 2);
  EXPECT_THAT(r.err, HasSubstr("cup-r1-b2"));
  EXPECT_THAT(r.err, HasSubstr("not this board's"));
  v1::Game g;
  EXPECT_EQ(GetGame("cup-r1-b1", &g).error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(Show("cup").revision(), revision);
}

TEST_F(Rounds, RefusalsNameTheRoundAndTheRole) {
  CreateCup();
  Ok({"tournament", "pair", "cup", "--round", "1", "--board", "A,B", "--board", "C,D"});
  ProcessResult unpaired = Cli({"tournament", "start-round", "cup", "--round", "2"});
  EXPECT_EQ(unpaired.exit, 2);
  EXPECT_THAT(unpaired.err, HasSubstr("round 2 of tournament 'cup' is not paired"));
  ProcessResult unknown = Cli({"tournament", "start-round", "cup", "--round", "9"});
  EXPECT_EQ(unknown.exit, 2);
  EXPECT_THAT(unknown.err, HasSubstr("has 4 rounds"));
  ProcessResult nobody = Cli({"tournament", "start-round", "nope", "--round", "1"});
  EXPECT_EQ(nobody.exit, 2);

  // A floor arbiter may not start a round, by gRPC or the CLI.
  v1::StartRoundResponse out;
  EXPECT_EQ(StartRoundRpc(arbiter_, "cup", 1, &out).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(Cli({"tournament", "start-round", "cup", "--round", "1"}, arbiter_).exit, 4);
  v1::Game g;
  EXPECT_EQ(GetGame("cup-r1-b1", &g).error_code(), grpc::StatusCode::NOT_FOUND);
}

// A start refused tells a program why, as the service README's "Refusals"
// table says: an ErrorInfo (domain arbiter.v1) with the reason and its
// facts, which the hall's page words in Chinese or English.
TEST_F(Rounds, ARefusedStartSaysWhyToAProgram) {
  CreateCup();
  Ok({"game", "create", "--id", "cup-r1-b2", "--black", "Xu Hao,3d", "--white", "Sun Li,3d"});
  Ok({"tournament", "pair", "cup", "--round", "1", "--board", "A,B", "--board", "C,D"});
  auto why = [&](const std::string& id, int round) {
    v1::StartRoundResponse out;
    const grpc::Status s = StartRoundRpc(chief_, id, round, &out);
    EXPECT_FALSE(s.ok());
    google::rpc::Status details;
    google::rpc::ErrorInfo info;
    EXPECT_TRUE(details.ParseFromString(s.error_details())) << s.error_message();
    EXPECT_EQ(details.details_size(), 1) << s.error_message();
    if (details.details_size() == 1) EXPECT_TRUE(details.details(0).UnpackTo(&info));
    EXPECT_EQ(info.domain(), "arbiter.v1");
    std::map<std::string, std::string> facts(info.metadata().begin(), info.metadata().end());
    return std::make_pair(info.reason(), facts);
  };
  using Facts = std::map<std::string, std::string>;
  EXPECT_EQ(why("cup", 2), std::make_pair(std::string("ROUND_NOT_PAIRED"), Facts{{"round", "2"}}));
  EXPECT_EQ(why("cup", 9), std::make_pair(std::string("ROUND_BEYOND_LAST"),
                                          Facts{{"round", "9"}, {"rounds", "4"}}));
  EXPECT_EQ(why("nope", 1),
            std::make_pair(std::string("TOURNAMENT_NOT_FOUND"), Facts{{"tournament", "nope"}}));
  EXPECT_EQ(why("cup", 1), std::make_pair(std::string("GAME_NOT_THIS_BOARDS"),
                                          Facts{{"board", "2"}, {"game", "cup-r1-b2"}}));
}

// OpenGotha's swiss4.xml (tests/tournament/data): Li Wei, Wang Ming, Dupont
// & Fils Jean, Müller Hans and Zhao Lin; round 2 pairs Li Wei (Black) and
// Müller Hans on table 1, Wang Ming and Zhao Lin on table 2, a bye for
// Dupont. The tournament registered them under its own ids, Li Wei by his
// native name with the romanized one beside it.
TEST_F(Rounds, ImportRoundFromOpenGothaThenStartIt) {
  const std::string file = testing::SourcePath("tests/tournament/data/swiss4.xml");
  Ok({"tournament",  "create",
      "--id",        "open",
      "--system",    "swiss",
      "--rounds",    "3",
      "--player",    "P1:李,伟:5D",
      "--romanized", "P1:Li,Wei",
      "--player",    "P2:Wang,Ming:4D",
      "--player",    "P3:Dupont & Fils,Jean:1K",
      "--player",    "P4:Müller,Hans:2K",
      "--player",    "P5:Zhao,Lin:3K"});
  const uint64_t before = Show("open").revision();

  // Round 3 of the file first (a handicap game, refused below when started).
  Ok({"tournament", "import-round", "open", "--round", "3", file});

  // A round the file does not pair: one error, nothing written.
  ProcessResult absent = Cli({"tournament", "import-round", "open", "--round", "4", file});
  EXPECT_EQ(absent.exit, 2);
  EXPECT_THAT(absent.err, HasSubstr("the file pairs no round 4 (it pairs round 1, 2, 3)"));

  // Round 2 of the file, as the tournament's round 2.
  ProcessResult imported = Cli({"tournament", "import-round", "open", "--round", "2", file});
  ASSERT_EQ(imported.exit, 0) << imported.err;
  v1::Tournament t = Show("open");
  EXPECT_EQ(t.revision(), before + 2);  // round 3, then round 2
  const v1::TournamentRound* two = nullptr;
  for (const v1::TournamentRound& r : t.rounds()) {
    if (r.round() == 2) two = &r;
  }
  ASSERT_NE(two, nullptr);
  ASSERT_EQ(two->pairings_size(), 2);
  EXPECT_EQ(two->pairings(0).black(), "P1");
  EXPECT_EQ(two->pairings(0).white(), "P4");
  EXPECT_EQ(two->pairings(1).black(), "P2");
  EXPECT_EQ(two->pairings(1).white(), "P5");
  // The file's results are not the games': the round is still to be played.
  EXPECT_EQ(two->pairings(0).entered_outcome(), v1::Result::OUTCOME_UNSPECIFIED);
  ASSERT_EQ(two->byes_size(), 1);
  EXPECT_EQ(two->byes(0), "P3");

  v1::StartRoundResponse started = StartRound("open", 2);
  ASSERT_EQ(started.tables_size(), 2);
  v1::Game g;
  ASSERT_TRUE(GetGame("open-r2-b1", &g).ok());
  EXPECT_EQ(g.created().black().name(), "李伟");
  EXPECT_EQ(g.created().white().name(), "Müller Hans");
  EXPECT_EQ(g.created().table(), 1u);
  EXPECT_EQ(g.created().ruleset(), "cn-2002");
  EXPECT_FALSE(g.created().has_time_control());  // the tournament set none: untimed

  // Round 3 of the file is a handicap game: refused, nothing created.
  ProcessResult handicap = Cli({"tournament", "start-round", "open", "--round", "3"});
  EXPECT_EQ(handicap.exit, 2);
  EXPECT_THAT(handicap.err, HasSubstr("handicap 2"));
  EXPECT_EQ(GetGame("open-r3-b1", &g).error_code(), grpc::StatusCode::NOT_FOUND);
}

TEST_F(Rounds, ImportRoundRefusesPlayersTheTournamentDoesNotKnow) {
  const std::string file = testing::SourcePath("tests/tournament/data/swiss4.xml");
  Ok({"tournament", "create", "--id", "small", "--system", "swiss", "--player", "P1:Li,Wei:5D",
      "--player", "P2:Wang,Ming:4D", "--player", "P4:Müller,Hans:2K"});
  const uint64_t before = Show("small").revision();
  ProcessResult r = Cli({"tournament", "import-round", "small", "--round", "2", file});
  EXPECT_EQ(r.exit, 2);
  EXPECT_THAT(r.err, HasSubstr("Zhao Lin (no such player)"));
  EXPECT_THAT(r.err, HasSubstr("Dupont & Fils Jean (no such player)"));
  EXPECT_EQ(Show("small").revision(), before);
  // A floor arbiter may not pair.
  EXPECT_EQ(Cli({"tournament", "import-round", "small", "--round", "1", file}, arbiter_).exit, 4);
}

}  // namespace
}  // namespace arbiter
