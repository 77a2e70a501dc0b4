// A standard client that knows only what server reflection tells it: it
// links no arbiter schema, learns arbiter.v1 from the server (reflection
// v1alpha), builds its messages dynamically and calls CreateGame and GetGame
// as generic calls; on an open server and, with a token, on one with tokens.
// Then the reflection service itself: behind the tokens once they exist, the
// services it lists, a file with all its imports in one answer, and
// NOT_FOUND answers that leave the stream open.
#include <algorithm>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "google/protobuf/descriptor.h"
#include "google/protobuf/descriptor.pb.h"
#include "google/protobuf/descriptor_database.h"
#include "google/protobuf/dynamic_message.h"
#include "grpc/reflection/v1alpha/reflection.grpc.pb.h"
#include "grpcpp/create_channel.h"
#include "grpcpp/generic/generic_stub.h"
#include "grpcpp/security/credentials.h"
#include "gtest/gtest.h"
#include "tests/support/arbiter_process.h"
#include "tests/support/temp_dir.h"

namespace arbiter::testing {
namespace {

namespace pb = google::protobuf;
namespace refl = grpc::reflection::v1alpha;

// A new token for the server on `data_dir`, made as an operator makes it
// (`arbiter token create`); empty if that fails.
std::string CreateToken(const std::string& data_dir, const std::string& role,
                        const std::string& name) {
  ProcessResult r =
      RunArbiter({"token", "create", "--role", role, "--name", name, "--db", data_dir});
  if (r.exit != 0 || r.out.size() < 2) return "";
  return r.out.substr(0, r.out.find('\n'));
}

// Sends `token` (none when empty) as a bearer token with the call.
void Authorize(grpc::ClientContext& ctx, const std::string& token) {
  if (!token.empty()) ctx.AddMetadata("authorization", "Bearer " + token);
}

// Fetches the file defining `symbol` and, recursively, every file it
// imports, into `db`.
bool LoadSchema(refl::ServerReflection::Stub& stub, const std::string& token,
                const std::string& symbol, pb::SimpleDescriptorDatabase* db,
                std::vector<std::string>* services) {
  grpc::ClientContext ctx;
  Authorize(ctx, token);
  auto stream = stub.ServerReflectionInfo(&ctx);
  refl::ServerReflectionRequest req;
  refl::ServerReflectionResponse resp;
  req.set_list_services("");
  if (!stream->Write(req) || !stream->Read(&resp)) return false;
  for (const auto& s : resp.list_services_response().service()) services->push_back(s.name());

  std::set<std::string> have;
  std::vector<refl::ServerReflectionRequest> todo(1);
  todo[0].set_file_containing_symbol(symbol);
  while (!todo.empty()) {
    req = todo.back();
    todo.pop_back();
    if (!stream->Write(req) || !stream->Read(&resp)) return false;
    if (resp.has_error_response()) return false;
    for (const std::string& bytes : resp.file_descriptor_response().file_descriptor_proto()) {
      pb::FileDescriptorProto file;
      if (!file.ParseFromString(bytes)) return false;
      if (!have.insert(file.name()).second) continue;
      db->Add(file);
      for (const std::string& dep : file.dependency()) {
        if (have.count(dep) == 0) {
          refl::ServerReflectionRequest more;
          more.set_file_by_filename(dep);
          todo.push_back(more);
        }
      }
    }
  }
  stream->WritesDone();
  return stream->Finish().ok();
}

// A unary call with serialized bytes, as any generic client makes it.
grpc::Status Unary(grpc::GenericStub& stub, const std::string& token, const std::string& method,
                   const pb::Message& request, pb::Message* response) {
  std::string bytes = request.SerializeAsString();
  grpc::Slice slice(bytes);
  grpc::ByteBuffer req_buf(&slice, 1), resp_buf;
  grpc::ClientContext ctx;
  Authorize(ctx, token);
  grpc::CompletionQueue cq;
  auto call = stub.PrepareUnaryCall(&ctx, method, req_buf, &cq);
  call->StartCall();
  grpc::Status status;
  call->Finish(&resp_buf, &status, reinterpret_cast<void*>(1));
  void* tag = nullptr;
  bool ok = false;
  if (!cq.Next(&tag, &ok) || !ok) return grpc::Status(grpc::StatusCode::INTERNAL, "no completion");
  cq.Shutdown();
  while (cq.Next(&tag, &ok)) {
  }
  if (!status.ok()) return status;
  std::vector<grpc::Slice> slices;
  if (!resp_buf.Dump(&slices).ok()) return grpc::Status(grpc::StatusCode::INTERNAL, "bad buffer");
  std::string out;
  for (const grpc::Slice& s : slices)
    out.append(reinterpret_cast<const char*>(s.begin()), s.size());
  if (!response->ParseFromString(out)) return grpc::Status(grpc::StatusCode::INTERNAL, "bad reply");
  return status;
}

// Open (no token ever issued), or with a CHIEF_ARBITER token (CreateGame
// needs one).
class ReflectedClientTest : public ::testing::TestWithParam<bool> {};

TEST_P(ReflectedClientTest, AClientThatKnowsOnlyTheReflectedSchemaCallsTheService) {
  const TempDir temp("arbiter-reflection");
  const std::string& dir = temp.path();
  std::string token;
  if (GetParam()) {
    token = CreateToken(dir + "/data", "CHIEF_ARBITER", "Chen Zuode");
    ASSERT_FALSE(token.empty());
  }
  auto server = ServerProcess::Start(dir + "/data");
  ASSERT_NE(server, nullptr);
  auto channel = grpc::CreateChannel(server->address(), grpc::InsecureChannelCredentials());

  auto reflection = refl::ServerReflection::NewStub(channel);
  pb::SimpleDescriptorDatabase db;
  std::vector<std::string> services;
  ASSERT_TRUE(LoadSchema(*reflection, token, "arbiter.v1.Arbiter", &db, &services));
  EXPECT_NE(std::find(services.begin(), services.end(), "arbiter.v1.Arbiter"), services.end());
  pb::DescriptorPool pool(&db);
  const pb::ServiceDescriptor* service = pool.FindServiceByName("arbiter.v1.Arbiter");
  ASSERT_NE(service, nullptr);
  for (const char* m : {"CreateGame", "GetGame", "AppendEvents", "ListEvents", "ListRulings",
                        "WatchGame", "WatchAll", "Decide", "VerifyGame", "GetCheckpoint",
                        "GetInclusionProof", "ExportGame", "GetRuleset", "GetClause"}) {
    EXPECT_NE(service->FindMethodByName(m), nullptr) << m;
  }

  pb::DynamicMessageFactory factory(&pool);
  grpc::GenericStub stub(channel);
  const pb::MethodDescriptor* create = service->FindMethodByName("CreateGame");
  std::unique_ptr<pb::Message> create_req(factory.GetPrototype(create->input_type())->New());
  pb::Message* game = create_req->GetReflection()->MutableMessage(
      create_req.get(), create->input_type()->FindFieldByName("game"));
  game->GetReflection()->SetString(game, game->GetDescriptor()->FindFieldByName("game_id"),
                                   "reflected");
  game->GetReflection()->SetInt32(game, game->GetDescriptor()->FindFieldByName("board_size"), 19);
  for (const char* side : {"black", "white"}) {  // CreateGame wants both players
    pb::Message* player =
        game->GetReflection()->MutableMessage(game, game->GetDescriptor()->FindFieldByName(side));
    player->GetReflection()->SetString(player, player->GetDescriptor()->FindFieldByName("name"),
                                       side);
  }
  std::unique_ptr<pb::Message> created(factory.GetPrototype(create->output_type())->New());
  ASSERT_TRUE(
      Unary(stub, token, "/arbiter.v1.Arbiter/CreateGame", *create_req, created.get()).ok());

  const pb::MethodDescriptor* get = service->FindMethodByName("GetGame");
  std::unique_ptr<pb::Message> get_req(factory.GetPrototype(get->input_type())->New());
  get_req->GetReflection()->SetString(get_req.get(), get->input_type()->FindFieldByName("name"),
                                      "games/reflected");
  std::unique_ptr<pb::Message> got(factory.GetPrototype(get->output_type())->New());
  ASSERT_TRUE(Unary(stub, token, "/arbiter.v1.Arbiter/GetGame", *get_req, got.get()).ok());
  const pb::Descriptor* g = got->GetDescriptor();
  EXPECT_EQ(got->GetReflection()->GetString(*got, g->FindFieldByName("game_id")), "reflected");
  EXPECT_EQ(got->GetReflection()->GetUInt64(*got, g->FindFieldByName("revision")), 1u);
  EXPECT_EQ(got->GetReflection()->GetString(*got, g->FindFieldByName("name")), "games/reflected");
  EXPECT_FALSE(got->GetReflection()->HasField(*got, g->FindFieldByName("result")));

  // Errors come back as the documented codes to a generic client too.
  get_req->GetReflection()->SetString(get_req.get(), get->input_type()->FindFieldByName("name"),
                                      "games/not-there");
  EXPECT_EQ(Unary(stub, token, "/arbiter.v1.Arbiter/GetGame", *get_req, got.get()).error_code(),
            grpc::StatusCode::NOT_FOUND);
  server.reset();
}

INSTANTIATE_TEST_SUITE_P(OpenAndWithTokens, ReflectedClientTest, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool>& info) {
                           return info.param ? "WithToken" : "Open";
                         });

// A server with one SOFTWARE token issued (the least role: reads only).
class ReflectionServiceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    token_ = CreateToken(dir_.File("data"), "SOFTWARE", "Broadcast");
    ASSERT_FALSE(token_.empty());
    server_ = ServerProcess::Start(dir_.File("data"));
    ASSERT_NE(server_, nullptr);
    stub_ = refl::ServerReflection::NewStub(
        grpc::CreateChannel(server_->address(), grpc::InsecureChannelCredentials()));
  }

  // One request on a stream of its own, sent with `token`; the stream's
  // status when it ends without an answer.
  grpc::Status Ask(const std::string& token, const refl::ServerReflectionRequest& req,
                   refl::ServerReflectionResponse* resp) {
    grpc::ClientContext ctx;
    Authorize(ctx, token);
    auto stream = stub_->ServerReflectionInfo(&ctx);
    const bool answered = stream->Write(req) && stream->Read(resp);
    stream->WritesDone();
    grpc::Status status = stream->Finish();
    if (status.ok() && !answered) return grpc::Status(grpc::StatusCode::INTERNAL, "no answer");
    return status;
  }

  TempDir dir_{"arbiter-reflection"};
  std::string token_;
  std::unique_ptr<ServerProcess> server_;
  std::unique_ptr<refl::ServerReflection::Stub> stub_;
};

TEST_F(ReflectionServiceTest, RefusesAStreamWithoutALiveToken) {
  refl::ServerReflectionRequest req;
  req.set_list_services("");
  refl::ServerReflectionResponse resp;
  EXPECT_EQ(Ask("", req, &resp).error_code(), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_FALSE(resp.has_list_services_response());
  EXPECT_EQ(Ask("arb_" + std::string(64, '0'), req, &resp).error_code(),
            grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_FALSE(resp.has_list_services_response());

  // Revoked: refused from the next stream on.
  ASSERT_TRUE(Ask(token_, req, &resp).ok());
  ProcessResult list = RunArbiter({"token", "list", "--db", dir_.File("data")});
  ASSERT_EQ(list.exit, 0) << list.err;
  const std::string id = list.out.substr(0, list.out.find(' '));  // "ID  ROLE  NAME ..."
  ASSERT_EQ(RunArbiter({"token", "revoke", id, "--db", dir_.File("data")}).exit, 0);
  EXPECT_EQ(Ask(token_, req, &resp).error_code(), grpc::StatusCode::UNAUTHENTICATED);
}

// Every request on a stream is charged to the caller's read rate, not only
// the stream's opening: --read-rate 1 allows a burst of 2.
TEST(ReflectionRateTest, EachRequestOnAStreamIsChargedToTheReadRate) {
  const TempDir temp("arbiter-reflection-rate");
  const std::string& dir = temp.path();
  const std::string token = CreateToken(dir + "/data", "SOFTWARE", "Broadcast");
  ASSERT_FALSE(token.empty());
  auto server = ServerProcess::Start(dir + "/data", {"--read-rate", "1"});
  ASSERT_NE(server, nullptr);
  auto stub = refl::ServerReflection::NewStub(
      grpc::CreateChannel(server->address(), grpc::InsecureChannelCredentials()));
  grpc::ClientContext ctx;
  Authorize(ctx, token);
  auto stream = stub->ServerReflectionInfo(&ctx);
  refl::ServerReflectionRequest req;
  req.set_list_services("");
  int answered = 0;
  for (int i = 0; i < 10; ++i) {
    refl::ServerReflectionResponse resp;
    if (!stream->Write(req) || !stream->Read(&resp)) break;
    ++answered;
  }
  stream->WritesDone();
  const grpc::Status status = stream->Finish();
  EXPECT_EQ(status.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED) << status.error_message();
  EXPECT_GE(answered, 1);
  EXPECT_LT(answered, 10);
  server.reset();
}

TEST_F(ReflectionServiceTest, ListsEveryServedService) {
  refl::ServerReflectionRequest req;
  req.set_host("localhost");
  req.set_list_services("*");
  refl::ServerReflectionResponse resp;
  ASSERT_TRUE(Ask(token_, req, &resp).ok());
  ASSERT_TRUE(resp.has_list_services_response()) << resp.DebugString();
  std::set<std::string> names;
  for (const auto& s : resp.list_services_response().service()) names.insert(s.name());
  EXPECT_EQ(names, (std::set<std::string>{"arbiter.v1.Arbiter", "arbiter.v1.TournamentService",
                                          "grpc.health.v1.Health",
                                          "grpc.reflection.v1alpha.ServerReflection"}));
  EXPECT_EQ(resp.valid_host(), "localhost");
  EXPECT_EQ(resp.original_request().list_services(), "*");
}

TEST_F(ReflectionServiceTest, AnswersAFileWithAllItsImports) {
  refl::ServerReflectionRequest req;
  req.set_file_containing_symbol("arbiter.v1.Arbiter");
  refl::ServerReflectionResponse resp;
  ASSERT_TRUE(Ask(token_, req, &resp).ok());
  ASSERT_TRUE(resp.has_file_descriptor_response()) << resp.DebugString();

  // The defining file first, then its imports, transitively, each once: the
  // one answer builds the service.
  pb::SimpleDescriptorDatabase db;
  std::vector<std::string> names;
  for (const std::string& bytes : resp.file_descriptor_response().file_descriptor_proto()) {
    pb::FileDescriptorProto file;
    ASSERT_TRUE(file.ParseFromString(bytes));
    names.push_back(file.name());
    ASSERT_TRUE(db.Add(file)) << file.name();
  }
  ASSERT_FALSE(names.empty());
  EXPECT_EQ(names[0], "arbiter/v1/service.proto");
  EXPECT_EQ(std::set<std::string>(names.begin(), names.end()),
            (std::set<std::string>{
                "arbiter/v1/service.proto", "arbiter/v1/access.proto", "arbiter/v1/events.proto",
                "arbiter/v1/ledger.proto", "arbiter/v1/rules.proto", "arbiter/v1/rulings.proto",
                "google/protobuf/descriptor.proto", "google/protobuf/duration.proto",
                "google/protobuf/timestamp.proto"}));
  EXPECT_EQ(names.size(), 9u) << "each file once";
  pb::DescriptorPool pool(&db);
  const pb::ServiceDescriptor* service = pool.FindServiceByName("arbiter.v1.Arbiter");
  ASSERT_NE(service, nullptr);
  EXPECT_NE(service->FindMethodByName("AppendEvents"), nullptr);
  EXPECT_NE(pool.FindMessageTypeByName("arbiter.v1.Event"), nullptr);

  // A method's name finds its file too; so does a file's own name.
  req.set_file_containing_symbol("arbiter.v1.TournamentService");
  ASSERT_TRUE(Ask(token_, req, &resp).ok());
  ASSERT_TRUE(resp.has_file_descriptor_response());
  pb::FileDescriptorProto first;
  ASSERT_TRUE(first.ParseFromString(resp.file_descriptor_response().file_descriptor_proto(0)));
  EXPECT_EQ(first.name(), "arbiter/v1/tournament.proto");
  req.set_file_by_filename("arbiter/v1/rulings.proto");
  ASSERT_TRUE(Ask(token_, req, &resp).ok());
  ASSERT_TRUE(resp.has_file_descriptor_response());
  ASSERT_TRUE(first.ParseFromString(resp.file_descriptor_response().file_descriptor_proto(0)));
  EXPECT_EQ(first.name(), "arbiter/v1/rulings.proto");
}

TEST_F(ReflectionServiceTest, UnknownNamesAreNotFoundAndTheStreamGoesOn) {
  grpc::ClientContext ctx;
  Authorize(ctx, token_);
  auto stream = stub_->ServerReflectionInfo(&ctx);
  refl::ServerReflectionResponse resp;
  auto expect_not_found = [&](const refl::ServerReflectionRequest& req) {
    ASSERT_TRUE(stream->Write(req) && stream->Read(&resp));
    ASSERT_TRUE(resp.has_error_response()) << resp.DebugString();
    EXPECT_EQ(resp.error_response().error_code(), grpc::StatusCode::NOT_FOUND);
    EXPECT_FALSE(resp.error_response().error_message().empty());
  };
  refl::ServerReflectionRequest req;
  req.set_file_containing_symbol("arbiter.v1.NoSuchService");
  expect_not_found(req);
  req.set_file_by_filename("arbiter/v1/no_such.proto");
  expect_not_found(req);
  req.mutable_file_containing_extension()->set_containing_type("arbiter.v1.NoSuchMessage");
  expect_not_found(req);
  req.mutable_file_containing_extension()->set_containing_type("arbiter.v1.Event");
  req.mutable_file_containing_extension()->set_extension_number(1000);
  expect_not_found(req);
  req.set_all_extension_numbers_of_type("arbiter.v1.NoSuchMessage");
  expect_not_found(req);

  // A known type with no extensions: an empty list, not an error.
  req.set_all_extension_numbers_of_type("arbiter.v1.Event");
  ASSERT_TRUE(stream->Write(req) && stream->Read(&resp));
  ASSERT_TRUE(resp.has_all_extension_numbers_response()) << resp.DebugString();
  EXPECT_EQ(resp.all_extension_numbers_response().base_type_name(), "arbiter.v1.Event");
  EXPECT_EQ(resp.all_extension_numbers_response().extension_number_size(), 0);

  req.set_file_containing_symbol("arbiter.v1.Arbiter");
  ASSERT_TRUE(stream->Write(req) && stream->Read(&resp));
  EXPECT_TRUE(resp.has_file_descriptor_response());
  stream->WritesDone();
  EXPECT_TRUE(stream->Finish().ok());
}

// gRPC's reflection service is synchronous: each open stream holds a thread
// of gRPC's pool, and 5,000 idle streams from one token once made 5,000
// threads. A caller holds at most 4 at once (RESOURCE_EXHAUSTED beyond), and
// a closed one gives its place back.
TEST(ReflectionStreamsTest, ACallerHoldsAtMostFourAtOnce) {
  const TempDir temp("arbiter-reflection-streams");
  const std::string data = temp.path() + "/data";
  const std::string token = CreateToken(data, "SOFTWARE", "Explorer");
  ASSERT_FALSE(token.empty());
  auto server = ServerProcess::Start(data);
  ASSERT_NE(server, nullptr);
  auto stub = refl::ServerReflection::NewStub(
      grpc::CreateChannel(server->address(), grpc::InsecureChannelCredentials()));
  using Stream =
      grpc::ClientReaderWriter<refl::ServerReflectionRequest, refl::ServerReflectionResponse>;
  struct Open {
    grpc::ClientContext ctx;
    std::unique_ptr<Stream> stream;
  };
  refl::ServerReflectionRequest req;
  req.set_list_services("");
  // Opens a stream and waits for its first answer: admitted. Or the status
  // it ended with.
  auto open = [&](Open& o) -> grpc::Status {
    Authorize(o.ctx, token);
    o.stream = stub->ServerReflectionInfo(&o.ctx);
    refl::ServerReflectionResponse resp;
    if (o.stream->Write(req) && o.stream->Read(&resp)) return grpc::Status::OK;
    return o.stream->Finish();
  };
  std::vector<std::unique_ptr<Open>> held;
  for (int i = 0; i < 4; ++i) {
    held.push_back(std::make_unique<Open>());
    const grpc::Status s = open(*held.back());
    ASSERT_TRUE(s.ok()) << i << ": " << s.error_message();
  }
  for (int i = 0; i < 8; ++i) {
    Open refused;
    const grpc::Status s = open(refused);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED) << s.error_message();
  }

  // One closed, its place is free again.
  held.back()->stream->WritesDone();
  EXPECT_TRUE(held.back()->stream->Finish().ok());
  held.pop_back();
  Open again;
  const grpc::Status s = open(again);
  EXPECT_TRUE(s.ok()) << s.error_message();
  again.stream->WritesDone();
  EXPECT_TRUE(again.stream->Finish().ok());
  for (auto& o : held) {
    o->stream->WritesDone();
    EXPECT_TRUE(o->stream->Finish().ok());
  }
}

}  // namespace
}  // namespace arbiter::testing
