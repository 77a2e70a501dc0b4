// One typed admission step per method (adjudicator/service/admission.h):
// every method of the arbiter.v1 services declares the game it acts on
// (arbiter.v1.game_scope) beside its access, and the real server admits
// each request by those declarations: its bounds, then the caller's
// authority over the game it names, answered over gRPC as before the step
// moved from the interceptor into the handlers' typed admission.
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "adjudicator/service/admission.h"
#include "adjudicator/service/auth_role.h"
#include "adjudicator/service/auth_tokens.h"
#include "adjudicator/service/server.h"
#include "arbiter/v1/service.grpc.pb.h"
#include "arbiter/v1/tournament.grpc.pb.h"
#include "google/protobuf/descriptor.h"
#include "grpcpp/create_channel.h"
#include "grpcpp/security/credentials.h"
#include "gtest/gtest.h"
#include "tests/auth/auth_server.h"
#include "tests/support/temp_dir.h"

namespace arbiter::service {
namespace {

std::vector<const google::protobuf::ServiceDescriptor*> ArbiterServices() {
  return {
      v1::CreateGameRequest::descriptor()->file()->FindServiceByName("Arbiter"),
      v1::CreateTournamentRequest::descriptor()->file()->FindServiceByName("TournamentService")};
}

// The contract, read from the descriptors: a method without its game
// scope (a field of its request, or none) would be refused, so each one
// carries it, names a string field of its own request, and has a request
// type of its own or shares it only with methods declaring the same
// admission (AppendEvents and RecordEvents), so that the type names its
// admission to the handler.
TEST(AdmissionTest, EveryMethodDeclaresTheGameItActsOn) {
  int methods = 0;
  int shared = 0;  // methods whose request names another's (equal) admission
  for (const google::protobuf::ServiceDescriptor* s : ArbiterServices()) {
    ASSERT_NE(s, nullptr);
    for (int i = 0; i < s->method_count(); ++i, ++methods) {
      const google::protobuf::MethodDescriptor* m = s->method(i);
      const v1::GameScope& scope = m->options().GetExtension(v1::game_scope);
      EXPECT_TRUE(scope.scope_case() == v1::GameScope::kField ||
                  (scope.scope_case() == v1::GameScope::kNone && scope.none()))
          << m->full_name() << " declares no (arbiter.v1.game_scope)";
      absl::StatusOr<MethodAdmission> declared = MethodAdmission::Declared(m);
      ASSERT_TRUE(declared.ok()) << declared.status();
      const std::string name = absl::StrCat("/", s->full_name(), "/", m->name());
      const MethodAdmission* found = MethodAdmission::Find(name);
      ASSERT_NE(found, nullptr) << name;
      EXPECT_EQ(&found->method(), m);
      const MethodAdmission* by_request = MethodAdmission::ForRequest(*m->input_type());
      ASSERT_NE(by_request, nullptr)
          << m->input_type()->full_name() << " is the request of a method declared otherwise";
      EXPECT_EQ(by_request->method().input_type(), m->input_type());
      EXPECT_EQ(by_request->access(), found->access()) << name;
      EXPECT_EQ(by_request->game_field(), found->game_field()) << name;
      if (by_request != found) ++shared;
      EXPECT_NE(MethodAccess(name), v1::ACCESS_UNSPECIFIED) << name;
      // Every method that writes into a game names it: the caller's
      // authority over the game is checked for each.
      if (found->access() == v1::RECORD) {
        EXPECT_NE(found->game_field(), nullptr) << name;
      }
    }
  }
  EXPECT_GE(methods, 30);
  EXPECT_EQ(shared, 1) << "only RecordEvents shares its request (AppendEvents')";
  EXPECT_EQ(MethodAdmission::Find("/grpc.health.v1.Health/Check"), nullptr);
  EXPECT_EQ(MethodAdmission::Find("/arbiter.v1.Arbiter/DropTables"), nullptr);
}

TEST(AdmissionTest, AMethodWithoutItsGameScopeOrWithABadFieldIsRefused) {
  // A stand-in service declared here, so the check is of the rule itself.
  google::protobuf::FileDescriptorProto file;
  file.set_name("admission_test_stand_in.proto");
  file.set_package("stand.in");
  file.set_syntax("proto3");
  google::protobuf::DescriptorProto* request = file.add_message_type();
  request->set_name("Request");
  google::protobuf::FieldDescriptorProto* game = request->add_field();
  game->set_name("game");
  game->set_number(1);
  game->set_type(google::protobuf::FieldDescriptorProto::TYPE_STRING);
  game->set_label(google::protobuf::FieldDescriptorProto::LABEL_OPTIONAL);
  google::protobuf::FieldDescriptorProto* count = request->add_field();
  count->set_name("count");
  count->set_number(2);
  count->set_type(google::protobuf::FieldDescriptorProto::TYPE_INT32);
  count->set_label(google::protobuf::FieldDescriptorProto::LABEL_OPTIONAL);
  google::protobuf::ServiceDescriptorProto* service = file.add_service();
  service->set_name("S");
  auto add = [&](const std::string& name, bool access, const std::string& field, bool none) {
    google::protobuf::MethodDescriptorProto* m = service->add_method();
    m->set_name(name);
    m->set_input_type(".stand.in.Request");
    m->set_output_type(".stand.in.Request");
    if (access) m->mutable_options()->SetExtension(v1::method_access, v1::RECORD);
    if (!field.empty()) m->mutable_options()->MutableExtension(v1::game_scope)->set_field(field);
    if (none) m->mutable_options()->MutableExtension(v1::game_scope)->set_none(true);
  };
  add("Good", true, "game", false);
  add("NoScope", true, "", false);
  add("NoAccess", false, "game", false);
  add("NotAString", true, "count", false);
  add("NoSuchField", true, "gmae", false);
  add("NoGame", true, "", true);
  google::protobuf::DescriptorPool pool(google::protobuf::DescriptorPool::generated_pool());
  const google::protobuf::FileDescriptor* built = pool.BuildFile(file);
  ASSERT_NE(built, nullptr);
  const google::protobuf::ServiceDescriptor* s = built->service(0);
  ASSERT_TRUE(MethodAdmission::Declared(s->FindMethodByName("Good")).ok());
  EXPECT_EQ(MethodAdmission::Declared(s->FindMethodByName("Good"))->game_field()->name(), "game");
  EXPECT_EQ(MethodAdmission::Declared(s->FindMethodByName("NoGame"))->game_field(), nullptr);
  for (const char* bad : {"NoScope", "NoAccess", "NotAString", "NoSuchField"}) {
    absl::StatusOr<MethodAdmission> a = MethodAdmission::Declared(s->FindMethodByName(bad));
    EXPECT_TRUE(absl::IsInvalidArgument(a.status())) << bad;
    EXPECT_TRUE(absl::StrContains(a.status().message(), "stand.in.S.")) << a.status();
  }
}

TEST(AdmissionTest, TheStepReadsTheDeclaredFieldOfTheRequestItsMethodTakes) {
  const MethodAdmission* decide = MethodAdmission::Find("/arbiter.v1.Arbiter/Decide");
  ASSERT_NE(decide, nullptr);
  v1::DecideRequest req;
  req.set_game("games/board-7");
  ASSERT_TRUE(decide->GameOf(req).has_value());
  EXPECT_EQ(decide->GameOf(req)->value_or(""), "board-7");
  Caller arbiter;
  arbiter.role = Role::kArbiter;
  arbiter.games = {"board-7"};
  // A malformed name is refused as the handler refuses it (one parser of a
  // game's name), whatever the caller's authority.
  for (const char* malformed : {"board-7", "games/", "games/board 7", "tournaments/board-7"}) {
    req.set_game(malformed);
    ASSERT_TRUE(decide->GameOf(req).has_value());
    EXPECT_TRUE(absl::IsInvalidArgument(decide->GameOf(req)->status())) << malformed;
    const absl::Status refused = decide->Check(arbiter, req);
    EXPECT_TRUE(absl::IsInvalidArgument(refused)) << malformed << ": " << refused;
    EXPECT_TRUE(absl::StrContains(refused.message(), "game")) << refused;
  }
  arbiter = Caller();
  arbiter.role = Role::kArbiter;
  arbiter.games = {"board-7"};
  req.set_game("games/board-7");
  EXPECT_TRUE(decide->Check(arbiter, req).ok());
  req.set_game("games/board-8");
  EXPECT_TRUE(absl::IsPermissionDenied(decide->Check(arbiter, req)));
  EXPECT_TRUE(decide->Check(Caller(), req).ok()) << "an open server's caller";
  // Another method's request is not this method's to admit.
  v1::AppendEventsRequest other;
  other.set_game("games/board-7");
  EXPECT_TRUE(absl::IsInternal(decide->Check(arbiter, other)));
  // Reading names no authority over the game: every role reads every game.
  const MethodAdmission* get = MethodAdmission::Find("/arbiter.v1.Arbiter/GetGame");
  ASSERT_NE(get, nullptr);
  v1::GetGameRequest read;
  read.set_name("games/board-8");
  ASSERT_TRUE(get->GameOf(read).has_value());
  EXPECT_EQ(get->GameOf(read)->value_or(""), "board-8");
  EXPECT_TRUE(get->Check(arbiter, read).ok());
}

// The real server: each refusal that moved from the interceptor into the
// typed step, as a client sees it.
class AdmissionServerTest : public AuthServiceTest {
 protected:
  void SetUp() override {
    Start();
    if (HasFatalFailure()) return;
    chief_ = Token(Role::kChiefArbiter, "Wang Ru");
    arbiter_ = Token(Role::kArbiter, "Li Wei", {"g1"});
    tournaments_ = v1::TournamentService::NewStub(
        grpc::CreateChannel(server_->address(), grpc::InsecureChannelCredentials()));
    for (const char* game : {"g1", "g2"}) {
      grpc::Status s = Create(chief_, game);
      ASSERT_TRUE(s.ok()) << s.error_message();
    }
  }
  // A phone ring in `game` (the request's field as given), as the arbiter.
  grpc::Status Ring(const std::string& game) {
    grpc::ClientContext c;
    Auth(&c, arbiter_);
    v1::AppendEventsRequest req;
    req.set_game(game);
    v1::Event* e = req.add_events();
    e->mutable_at()->set_seconds(absl::ToUnixSeconds(absl::Now()) + 1);
    e->mutable_phone_rang()->set_color(v1::BLACK);
    v1::AppendEventsResponse out;
    return stub_->AppendEvents(&c, req, &out);
  }
  grpc::Status Decide(const std::string& game, const std::string& note = "") {
    grpc::ClientContext c;
    Auth(&c, arbiter_);
    v1::DecideRequest req;
    req.set_game(game);
    req.set_ruling(1);
    req.set_choice("warn");
    req.set_note(note);
    v1::AppendEventsResponse out;
    return stub_->Decide(&c, req, &out);
  }
  std::string chief_, arbiter_;
  std::unique_ptr<v1::TournamentService::Stub> tournaments_;
};

TEST_F(AdmissionServerTest, AnArbiterWritesOnlyInTheGamesOfTheirToken) {
  const uint64_t head = Head();
  for (grpc::Status s : {Ring("games/g2"), Decide("games/g2")}) {
    EXPECT_EQ(s.error_code(), grpc::StatusCode::PERMISSION_DENIED) << s.error_message();
    EXPECT_EQ(s.error_message(), "this arbiter's token is not assigned to game 'g2'");
  }
  // A malformed name is refused as malformed, with the words the handler
  // would use (one parser of a game's name), not as somebody else's game.
  grpc::Status s = Ring("g1");
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << s.error_message();
  EXPECT_EQ(s.error_message(), "game: expected \"games/{id}\", got \"g1\"");
  EXPECT_EQ(Head(), head) << "a refused call wrote something";
  s = Ring("games/g1");
  EXPECT_TRUE(s.ok()) << s.error_message();
  // Reading is not limited to the arbiter's games.
  grpc::ClientContext c;
  Auth(&c, arbiter_);
  v1::GetGameRequest get;
  get.set_name("games/g2");
  v1::Game game;
  s = stub_->GetGame(&c, get, &game);
  EXPECT_TRUE(s.ok()) << s.error_message();
}

TEST_F(AdmissionServerTest, BoundsComeBeforeAuthorityOnEveryMethod) {
  const uint64_t head = Head();
  const std::string long_game = "games/" + std::string(300, 'x');
  for (grpc::Status s : {Ring(long_game), Decide(long_game)}) {
    EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << s.error_message();
    EXPECT_TRUE(absl::StartsWith(s.error_message(), "game: 306 bytes, at most 256"))
        << s.error_message();
  }
  grpc::Status s = Decide("games/g1", std::string(2000, 'n'));
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << s.error_message();
  EXPECT_TRUE(absl::StartsWith(s.error_message(), "note: 2000 bytes, at most 1024"))
      << s.error_message();
  EXPECT_EQ(Head(), head);
  {
    grpc::ClientContext c;
    Auth(&c, arbiter_);
    v1::GetInclusionProofRequest req;
    req.set_game(long_game);
    req.set_revision(1);
    v1::InclusionProof out;
    s = stub_->GetInclusionProof(&c, req, &out);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << s.error_message();
    EXPECT_TRUE(absl::StartsWith(s.error_message(), "game: 306 bytes, at most 256"))
        << s.error_message();
  }
  // A watch and a tournament method, bounded by the same step.
  {
    grpc::ClientContext c;
    Auth(&c, arbiter_);
    v1::WatchGameRequest req;
    req.set_game(long_game);
    auto reader = stub_->WatchGame(&c, req);
    v1::WatchResponse r;
    EXPECT_FALSE(reader->Read(&r));
    s = reader->Finish();
    EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << s.error_message();
    EXPECT_TRUE(absl::StartsWith(s.error_message(), "game: 306 bytes, at most 256"))
        << s.error_message();
  }
  {
    grpc::ClientContext c;
    Auth(&c, chief_);
    v1::GetTournamentRequest req;
    req.set_name(std::string(300, 't'));
    v1::Tournament out;
    s = tournaments_->GetTournament(&c, req, &out);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << s.error_message();
    EXPECT_TRUE(absl::StartsWith(s.error_message(), "name: 300 bytes, at most 256"))
        << s.error_message();
  }
}

}  // namespace
}  // namespace arbiter::service
