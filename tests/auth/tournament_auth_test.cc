// arbiter.v1.TournamentService behind tokens and roles: the real server (its
// one authorization interceptor admits both services), over gRPC on
// loopback. A refused call writes nothing; the chief arbiter's writes record
// the chief arbiter as the events' actor.
#include <unistd.h>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "adjudicator/service/auth_role.h"
#include "adjudicator/service/auth_tokens.h"
#include "adjudicator/service/server.h"
#include "adjudicator/service/tournament_store.h"
#include "arbiter/v1/service.grpc.pb.h"
#include "arbiter/v1/tournament.grpc.pb.h"
#include "grpcpp/create_channel.h"
#include "grpcpp/security/credentials.h"
#include "gtest/gtest.h"
#include "tests/auth/auth_server.h"
#include "tests/support/temp_dir.h"

namespace arbiter::service {
namespace {

// The real server behind its tokens (auth_server.h), called through the
// TournamentService.
class TournamentAuthTest : public AuthServiceTest {
 protected:
  void SetUp() override {
    Start();
    if (HasFatalFailure()) return;
    // The operator's view of the stored events, beside the server's.
    auto store = tournament::TournamentStore::Open(server_->ledger(), "");
    ASSERT_TRUE(store.ok()) << store.status();
    store_ = *std::move(store);
    tournaments_ = v1::TournamentService::NewStub(
        grpc::CreateChannel(server_->address(), grpc::InsecureChannelCredentials()));
  }

  grpc::Status NewTournament(const std::string& token, const std::string& id) {
    grpc::ClientContext c;
    Auth(&c, token);
    v1::CreateTournamentRequest req;
    req.mutable_tournament()->set_tournament_id(id);
    req.mutable_tournament()->set_title("Spring Cup");
    req.mutable_tournament()->mutable_settings()->set_system(v1::TournamentSettings::ROUND_ROBIN);
    for (const char* p : {"A", "B"}) {
      v1::TournamentPlayer* player = req.add_players();
      player->set_id(p);
      player->set_name(p);
    }
    v1::Tournament out;
    return tournaments_->CreateTournament(&c, req, &out);
  }

  grpc::Status AddPlayer(const std::string& token, const std::string& id) {
    grpc::ClientContext c;
    Auth(&c, token);
    v1::AddPlayersRequest req;
    req.set_tournament("tournaments/cup");
    v1::TournamentPlayer* player = req.add_players();
    player->set_id(id);
    player->set_name(id);
    v1::Tournament out;
    return tournaments_->AddPlayers(&c, req, &out);
  }

  grpc::Status Pair(const std::string& token) {
    grpc::ClientContext c;
    Auth(&c, token);
    v1::PairRoundRequest req;
    req.set_tournament("tournaments/cup");
    req.mutable_round()->set_round(1);
    v1::Pairing* p = req.mutable_round()->add_pairings();
    p->set_board(1);
    p->set_black("A");
    p->set_white("B");
    p->set_game_id("r1-b1");
    v1::Tournament out;
    return tournaments_->PairRound(&c, req, &out);
  }

  grpc::Status Withdraw(const std::string& token) {
    grpc::ClientContext c;
    Auth(&c, token);
    v1::WithdrawPlayerRequest req;
    req.set_tournament("tournaments/cup");
    req.mutable_withdrawal()->set_player("B");
    v1::Tournament out;
    return tournaments_->WithdrawPlayer(&c, req, &out);
  }

  grpc::Status TieBreak(const std::string& token) {
    grpc::ClientContext c;
    Auth(&c, token);
    v1::DecideTieBreakRequest req;
    req.set_tournament("tournaments/cup");
    req.mutable_decision()->set_method(v1::TieBreakDecided::LOTS);
    req.mutable_decision()->add_order("A");
    req.mutable_decision()->add_order("B");
    v1::Tournament out;
    return tournaments_->DecideTieBreak(&c, req, &out);
  }

  grpc::Status Import(const std::string& token) {
    grpc::ClientContext c;
    Auth(&c, token);
    v1::ImportTournamentRequest req;
    req.set_tournament_id("imported");
    req.set_opengotha_xml("<Tournament/>");
    v1::Tournament out;
    return tournaments_->ImportTournament(&c, req, &out);
  }

  grpc::Status Get(const std::string& token) {
    grpc::ClientContext c;
    Auth(&c, token);
    v1::GetTournamentRequest req;
    req.set_name("tournaments/cup");
    v1::Tournament out;
    return tournaments_->GetTournament(&c, req, &out);
  }

  grpc::Status Standings(const std::string& token) {
    grpc::ClientContext c;
    Auth(&c, token);
    v1::GetStandingsRequest req;
    req.set_tournament("tournaments/cup");
    v1::StandingsReport out;
    return tournaments_->GetStandings(&c, req, &out);
  }

  grpc::Status Export(const std::string& token) {
    grpc::ClientContext c;
    Auth(&c, token);
    v1::ExportTournamentRequest req;
    req.set_tournament("tournaments/cup");
    req.set_format(v1::ExportTournamentRequest::CSV);
    v1::ExportTournamentResponse out;
    return tournaments_->ExportTournament(&c, req, &out);
  }

  // The stored events of `id` (none when it does not exist).
  std::vector<v1::TournamentEvent> Stored(const std::string& id) {
    auto events = store_->Load(id);
    if (absl::IsNotFound(events.status())) return {};
    EXPECT_TRUE(events.ok()) << events.status();
    return events.ok() ? *events : std::vector<v1::TournamentEvent>{};
  }

  std::unique_ptr<tournament::TournamentStore> store_;
  std::unique_ptr<v1::TournamentService::Stub> tournaments_;
};

TEST_F(TournamentAuthTest, OpenModeServesANewcomerWithoutActor) {
  const grpc::Status created = NewTournament("", "cup");
  ASSERT_TRUE(created.ok()) << created.error_message();
  ASSERT_TRUE(AddPlayer("", "C").ok());
  ASSERT_TRUE(Pair("").ok());
  EXPECT_TRUE(Get("").ok());
  EXPECT_TRUE(Standings("").ok());
  const auto events = Stored("cup");
  ASSERT_EQ(events.size(), 5u);  // created, A, B, C, round 1
  for (const v1::TournamentEvent& e : events) EXPECT_EQ(e.actor(), "");
}

TEST_F(TournamentAuthTest, UnauthenticatedCallsAreRefusedAndWriteNothing) {
  const std::string chief = Token(Role::kChiefArbiter, "Wang Ru");
  ASSERT_TRUE(NewTournament(chief, "cup").ok());
  const size_t before = Stored("cup").size();
  for (const std::string& token : {std::string(), std::string("arb_00")}) {
    EXPECT_EQ(NewTournament(token, "other").error_code(), grpc::StatusCode::UNAUTHENTICATED);
    EXPECT_EQ(Import(token).error_code(), grpc::StatusCode::UNAUTHENTICATED);
    EXPECT_EQ(AddPlayer(token, "C").error_code(), grpc::StatusCode::UNAUTHENTICATED);
    EXPECT_EQ(Pair(token).error_code(), grpc::StatusCode::UNAUTHENTICATED);
    EXPECT_EQ(Withdraw(token).error_code(), grpc::StatusCode::UNAUTHENTICATED);
    EXPECT_EQ(TieBreak(token).error_code(), grpc::StatusCode::UNAUTHENTICATED);
    EXPECT_EQ(Get(token).error_code(), grpc::StatusCode::UNAUTHENTICATED);
    EXPECT_EQ(Standings(token).error_code(), grpc::StatusCode::UNAUTHENTICATED);
  }
  EXPECT_EQ(Stored("cup").size(), before);
  EXPECT_TRUE(Stored("other").empty());
  EXPECT_TRUE(Stored("imported").empty());
}

TEST_F(TournamentAuthTest, OnlyTheChiefArbiterOrganisesAndIsRecordedAsActor) {
  const std::string chief = Token(Role::kChiefArbiter, "Wang Ru");
  const std::vector<std::string> others = {
      Token(Role::kArbiter, "Li Wei", {"*"}), Token(Role::kArbiter, "Zhao Lin", {"r1-b1"}),
      Token(Role::kAuditor, "KPMG"), Token(Role::kSoftware, "pairing app")};
  for (const std::string& t : others) {
    grpc::Status s = NewTournament(t, "cup");
    EXPECT_EQ(s.error_code(), grpc::StatusCode::PERMISSION_DENIED) << s.error_message();
    EXPECT_EQ(Import(t).error_code(), grpc::StatusCode::PERMISSION_DENIED);
  }
  EXPECT_TRUE(Stored("cup").empty());
  EXPECT_TRUE(Stored("imported").empty());

  ASSERT_TRUE(NewTournament(chief, "cup").ok());
  const size_t created = Stored("cup").size();
  for (const std::string& t : others) {
    grpc::Status s = AddPlayer(t, "C");
    EXPECT_EQ(s.error_code(), grpc::StatusCode::PERMISSION_DENIED) << s.error_message();
    EXPECT_TRUE(absl::StrContains(s.error_message(), "may not call AddPlayers"))
        << s.error_message();
    EXPECT_EQ(Pair(t).error_code(), grpc::StatusCode::PERMISSION_DENIED)
        << "even the arbiter of the paired game does not pair rounds";
    EXPECT_EQ(Withdraw(t).error_code(), grpc::StatusCode::PERMISSION_DENIED);
    EXPECT_EQ(TieBreak(t).error_code(), grpc::StatusCode::PERMISSION_DENIED);
    // Reads are for every role.
    EXPECT_TRUE(Get(t).ok());
    EXPECT_TRUE(Standings(t).ok());
    EXPECT_TRUE(Export(t).ok());
  }
  EXPECT_EQ(Stored("cup").size(), created) << "a refused call wrote something";

  ASSERT_TRUE(AddPlayer(chief, "C").ok());
  ASSERT_TRUE(Pair(chief).ok());
  const auto events = Stored("cup");
  ASSERT_EQ(events.size(), created + 2);
  for (const v1::TournamentEvent& e : events) {
    EXPECT_TRUE(absl::StartsWith(e.actor(), "Wang Ru (CHIEF_ARBITER, token ")) << e.actor();
  }
}

TEST_F(TournamentAuthTest, RevokedTokenIsRefusedAtTheNextCall) {
  const std::string chief = Token(Role::kChiefArbiter, "Wang Ru");
  ASSERT_TRUE(NewTournament(chief, "cup").ok());
  for (const TokenInfo& t : std::vector<TokenInfo>(tokens_->List().value()))
    ASSERT_TRUE(tokens_->Revoke(t.id).ok());
  EXPECT_EQ(AddPlayer(chief, "C").error_code(), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(NewTournament("", "other").error_code(), grpc::StatusCode::UNAUTHENTICATED)
      << "revoking every token does not reopen the server";
}

// One Gatekeeper admits both services, so a caller's writes share one
// bucket: a game write spends what a tournament write would have needed.
TEST(SharedGatekeeperTest, ArbiterAndTournamentWritesShareTheCallersBucket) {
  const ::arbiter::testing::TempDir dir("tournament-auth-shared");
  auto tokens = TokenStore::Open(dir.path());
  ASSERT_TRUE(tokens.ok());
  const auto chief = (*tokens)->Create(Role::kChiefArbiter, "Wang Ru", {});
  ASSERT_TRUE(chief.ok());
  ServerOptions o;
  o.data_dir = dir.path();
  o.listen = "127.0.0.1:0";
  o.live_timers = false;
  o.limits.writes_per_second = 0.001;
  o.limits.write_burst = 1;
  auto server = Server::Start(o);
  ASSERT_TRUE(server.ok()) << server.status();
  auto channel = grpc::CreateChannel((*server)->address(), grpc::InsecureChannelCredentials());
  {
    grpc::ClientContext c;
    c.AddMetadata("authorization", "Bearer " + *chief);
    v1::CreateGameRequest req;
    req.mutable_game()->set_game_id("g1");
    req.mutable_game()->set_board_size(19);
    req.mutable_game()->mutable_black()->set_name("Black");
    req.mutable_game()->mutable_white()->set_name("White");
    req.mutable_at()->set_seconds(1'780'000'000);
    v1::Game out;
    const grpc::Status s = v1::Arbiter::NewStub(channel)->CreateGame(&c, req, &out);
    EXPECT_TRUE(s.ok()) << "admitted, and charged: " << s.error_message();
  }
  {
    grpc::ClientContext c;
    c.AddMetadata("authorization", "Bearer " + *chief);
    v1::CreateTournamentRequest req;
    req.mutable_tournament()->set_tournament_id("cup");
    v1::Tournament out;
    EXPECT_EQ(v1::TournamentService::NewStub(channel)->CreateTournament(&c, req, &out).error_code(),
              grpc::StatusCode::RESOURCE_EXHAUSTED);
  }
  auto store = tournament::TournamentStore::Open((*server)->ledger(), "");
  ASSERT_TRUE(store.ok());
  EXPECT_TRUE(absl::IsNotFound((*store)->Load("cup").status())) << "nothing written";
  (*server)->Shutdown();
}

}  // namespace
}  // namespace arbiter::service
