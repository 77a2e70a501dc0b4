// A standard client that knows only what server reflection tells it: it
// links no arbiter schema, learns arbiter.v1 from the server (reflection
// v1alpha), builds its messages dynamically and calls CreateGame and GetGame
// as generic calls.
#include <algorithm>
#include <set>
#include <string>

#include "google/protobuf/descriptor.h"
#include "google/protobuf/descriptor.pb.h"
#include "google/protobuf/descriptor_database.h"
#include "google/protobuf/dynamic_message.h"
#include "grpc/reflection/v1alpha/reflection.grpc.pb.h"
#include "grpcpp/create_channel.h"
#include "grpcpp/generic/generic_stub.h"
#include "grpcpp/security/credentials.h"
#include "gtest/gtest.h"
#include "tests/service/server_process.h"

namespace arbiter::testing {
namespace {

namespace pb = google::protobuf;
namespace refl = grpc::reflection::v1alpha;

// Fetches the file defining `symbol` and, recursively, every file it
// imports, into `db`.
bool LoadSchema(refl::ServerReflection::Stub& stub, const std::string& symbol,
                pb::SimpleDescriptorDatabase* db, std::vector<std::string>* services) {
  grpc::ClientContext ctx;
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
grpc::Status Unary(grpc::GenericStub& stub, const std::string& method, const pb::Message& request,
                   pb::Message* response) {
  std::string bytes = request.SerializeAsString();
  grpc::Slice slice(bytes);
  grpc::ByteBuffer req_buf(&slice, 1), resp_buf;
  grpc::ClientContext ctx;
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
  for (const grpc::Slice& s : slices) out.append(reinterpret_cast<const char*>(s.begin()), s.size());
  if (!response->ParseFromString(out)) return grpc::Status(grpc::StatusCode::INTERNAL, "bad reply");
  return status;
}

TEST(ReflectionTest, AClientThatKnowsOnlyTheReflectedSchemaCallsTheService) {
  const std::string dir = MakeTempDir("arbiter-reflection");
  auto server = ServerProcess::Start(dir + "/data");
  ASSERT_NE(server, nullptr);
  auto channel = grpc::CreateChannel(server->address(), grpc::InsecureChannelCredentials());

  auto reflection = refl::ServerReflection::NewStub(channel);
  pb::SimpleDescriptorDatabase db;
  std::vector<std::string> services;
  ASSERT_TRUE(LoadSchema(*reflection, "arbiter.v1.Arbiter", &db, &services));
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
  std::unique_ptr<pb::Message> created(factory.GetPrototype(create->output_type())->New());
  ASSERT_TRUE(Unary(stub, "/arbiter.v1.Arbiter/CreateGame", *create_req, created.get()).ok());

  const pb::MethodDescriptor* get = service->FindMethodByName("GetGame");
  std::unique_ptr<pb::Message> get_req(factory.GetPrototype(get->input_type())->New());
  get_req->GetReflection()->SetString(get_req.get(), get->input_type()->FindFieldByName("name"),
                                      "games/reflected");
  std::unique_ptr<pb::Message> got(factory.GetPrototype(get->output_type())->New());
  ASSERT_TRUE(Unary(stub, "/arbiter.v1.Arbiter/GetGame", *get_req, got.get()).ok());
  const pb::Descriptor* g = got->GetDescriptor();
  EXPECT_EQ(got->GetReflection()->GetString(*got, g->FindFieldByName("game_id")), "reflected");
  EXPECT_EQ(got->GetReflection()->GetUInt64(*got, g->FindFieldByName("revision")), 1u);
  EXPECT_EQ(got->GetReflection()->GetString(*got, g->FindFieldByName("name")), "games/reflected");
  EXPECT_FALSE(got->GetReflection()->HasField(*got, g->FindFieldByName("result")));

  // Errors come back as the documented codes to a generic client too.
  get_req->GetReflection()->SetString(get_req.get(), get->input_type()->FindFieldByName("name"),
                                      "games/not-there");
  EXPECT_EQ(Unary(stub, "/arbiter.v1.Arbiter/GetGame", *get_req, got.get()).error_code(),
            grpc::StatusCode::NOT_FOUND);
  server.reset();
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace arbiter::testing
