// What gRPC itself takes from a client before any token is checked, tried
// from outside on a real `arbiter serve` of each test's own (its process is
// the test's to read). Found by an outside probe; each test failed before
// its fix.
#include <future>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "grpc/health/v1/health.grpc.pb.h"
#include "grpcpp/generic/generic_stub.h"
#include "grpcpp/grpcpp.h"
#include "tests/service/e2e_util.h"

namespace arbiter::testing {
namespace {

using grpc::StatusCode;

std::unique_ptr<grpc::ClientContext> Context(const std::string& token = "") {
  auto ctx = std::make_unique<grpc::ClientContext>();
  ctx->set_deadline(absl::ToChronoTime(absl::Now() + absl::Seconds(60)));
  if (!token.empty()) ctx->AddMetadata("authorization", "Bearer " + token);
  return ctx;
}

std::string Varint(uint64_t n) {
  std::string out;
  for (; n > 127; n >>= 7) out.push_back(static_cast<char>((n & 127) | 128));
  out.push_back(static_cast<char>(n));
  return out;
}

// F1. gRPC 1.51 inflates a compressed message whole before it compares its
// size with the 4 MiB receive limit, token or none: 1 MB of gzip on the
// wire became 1 GiB in the server. A GetGameRequest of 256 MiB (its name),
// gzip-compressed by the client to a few hundred KB, is refused by its
// header, and the server's peak memory does not grow by the message.
TEST(GrpcLimitsTest, ACompressedRequestIsRefusedBeforeItIsInflated) {
  TempDir dir("arbiter-grpc-gzip");
  const std::string data = dir.File("data");
  const std::string token = CreateToken(data, "SOFTWARE", "scoreboard");
  ASSERT_FALSE(token.empty());
  auto server = ServerProcess::Start(data);
  ASSERT_NE(server, nullptr);
  auto channel = grpc::CreateChannel(server->address(), grpc::InsecureChannelCredentials());
  const int64_t peak_before = ProcStatusField(server->pid(), "VmHWM");

  // The request's bytes: field 1 (name), "games/" and 256 MiB of 'a', the
  // 'a's as 256 references to one MiB, so the client holds little of it.
  constexpr size_t kMiB = 1 << 20;
  constexpr size_t kMiBs = 256;
  static const std::string* const kAs = new std::string(kMiB, 'a');
  const std::string head = "\x0a" + Varint(6 + kMiBs * kMiB) + "games/";
  std::vector<grpc::Slice> slices;
  slices.emplace_back(head);
  for (size_t i = 0; i < kMiBs; ++i) {
    slices.emplace_back(kAs->data(), kAs->size(), grpc::Slice::STATIC_SLICE);
  }
  const grpc::ByteBuffer request(slices.data(), slices.size());

  grpc::GenericStub stub(channel);
  for (const std::string& who : {token, std::string()}) {
    SCOPED_TRACE(who.empty() ? "no token" : "a token");
    auto ctx = Context(who);
    ctx->set_compression_algorithm(GRPC_COMPRESS_GZIP);
    grpc::ByteBuffer response;
    std::promise<grpc::Status> done;
    stub.UnaryCall(ctx.get(), "/arbiter.v1.Arbiter/GetGame", grpc::StubOptions(), &request,
                   &response, [&done](grpc::Status s) { done.set_value(std::move(s)); });
    const grpc::Status s = done.get_future().get();
    EXPECT_EQ(s.error_code(), StatusCode::UNIMPLEMENTED) << s.error_message();
    EXPECT_TRUE(absl::StrContains(s.error_message(), "gzip")) << s.error_message();
  }
  const int64_t peak = ProcStatusField(server->pid(), "VmHWM");
  EXPECT_LT(peak - peak_before, 64 * 1024)
      << "the server's peak grew from " << peak_before << " KiB to " << peak << " KiB";

  // Uncompressed requests are answered as before.
  auto arbiter = v1::Arbiter::NewStub(channel);
  v1::GetGameRequest req;
  req.set_name("games/nothing-here");
  v1::Game game;
  const grpc::Status s = arbiter->GetGame(Context(token).get(), req, &game);
  EXPECT_EQ(s.error_code(), StatusCode::NOT_FOUND) << s.error_message();
}

// F2. Health watches (PUBLIC: no token) are not watches of games: they
// take no place under --watchers-per-caller and --watchers. Counted as
// watches, a few of them from one host locked every token out of
// WatchGame/WatchAll, and nothing ended them. Here the caps are 2 and 2;
// 6 health watches are open (each has had its SERVING), and a token's
// WatchAll is still admitted (it gets the game's history). The health
// watches hold no thread of the server's.
TEST(GrpcLimitsTest, HealthWatchesTakeNoPlaceOfTheGamesWatchers) {
  TempDir dir("arbiter-grpc-health");
  const std::string data = dir.File("data");
  const std::string chief = CreateToken(data, "CHIEF_ARBITER", "chief");
  const std::string watcher = CreateToken(data, "SOFTWARE", "scoreboard");
  ASSERT_FALSE(chief.empty());
  ASSERT_FALSE(watcher.empty());
  auto server = ServerProcess::Start(data, {"--watchers", "2", "--watchers-per-caller", "2"});
  ASSERT_NE(server, nullptr);
  auto channel = grpc::CreateChannel(server->address(), grpc::InsecureChannelCredentials());
  auto stub = v1::Arbiter::NewStub(channel);
  {
    v1::AppendEventsRequest req;
    req.set_game("games/watched-1");
    *req.add_events() = Created("watched-1", T0());
    *req.add_events() = Started(T0());
    v1::AppendEventsResponse resp;
    const grpc::Status s = stub->AppendEvents(Context(chief).get(), req, &resp);
    ASSERT_TRUE(s.ok()) << s.error_message();
  }

  auto health = grpc::health::v1::Health::NewStub(channel);
  struct Open {
    std::unique_ptr<grpc::ClientContext> ctx;
    std::unique_ptr<grpc::ClientReader<grpc::health::v1::HealthCheckResponse>> reader;
  };
  std::vector<Open> health_watches;
  const int64_t threads_before = ProcStatusField(server->pid(), "Threads");
  for (int i = 0; i < 6; ++i) {
    SCOPED_TRACE(i);
    Open w{Context(), nullptr};
    grpc::health::v1::HealthCheckRequest req;
    w.reader = health->Watch(w.ctx.get(), req);
    grpc::health::v1::HealthCheckResponse resp;
    if (!w.reader->Read(&resp)) {
      ADD_FAILURE() << "health watch refused: " << w.reader->Finish().error_message();
      continue;
    }
    EXPECT_EQ(resp.status(), grpc::health::v1::HealthCheckResponse::SERVING);
    health_watches.push_back(std::move(w));
  }
  // Six watches holding a thread each would be six more (gRPC may start one
  // of its own meanwhile).
  EXPECT_LT(ProcStatusField(server->pid(), "Threads"), threads_before + 6)
      << "an open health watch holds a thread";

  // Both places are the games' watchers' still.
  std::vector<std::unique_ptr<grpc::ClientContext>> contexts;
  std::vector<std::unique_ptr<grpc::ClientReader<v1::WatchResponse>>> watches;
  for (int i = 0; i < 2; ++i) {
    SCOPED_TRACE(i);
    contexts.push_back(Context(watcher));
    v1::WatchAllRequest req;
    watches.push_back(stub->WatchAll(contexts.back().get(), req));
    v1::WatchResponse m;
    if (!watches.back()->Read(&m)) {
      ADD_FAILURE() << "WatchAll refused: " << watches.back()->Finish().error_message();
      watches.pop_back();
    }
  }
  for (auto& ctx : contexts) ctx->TryCancel();
  for (auto& w : watches) w->Finish();
  for (Open& w : health_watches) w.ctx->TryCancel();
  for (Open& w : health_watches) w.reader->Finish();
}

// Refused calls cost the server a token look-up each: they are charged to
// the read rate of whoever made them (the peer host without a valid token,
// the token when its role may not), so a client cannot have refusals at
// full speed. Before, 200 calls with no valid token and 200 a role may not
// make were all answered, none RESOURCE_EXHAUSTED. A valid token's own
// calls keep their own bucket.
TEST(GrpcLimitsTest, RefusedCallsAreChargedToTheReadRate) {
  TempDir dir("arbiter-grpc-refusals");
  const std::string data = dir.File("data");
  const std::string chief = CreateToken(data, "CHIEF_ARBITER", "chief");
  const std::string scoreboard = CreateToken(data, "SOFTWARE", "scoreboard");
  ASSERT_FALSE(chief.empty());
  ASSERT_FALSE(scoreboard.empty());
  // 1 read a second, a burst of 2.
  auto server = ServerProcess::Start(data, {"--read-rate", "1"});
  ASSERT_NE(server, nullptr);
  auto stub = v1::Arbiter::NewStub(
      grpc::CreateChannel(server->address(), grpc::InsecureChannelCredentials()));
  constexpr int kCalls = 20;
  for (const std::string& who : {std::string("arb_nonsense"), std::string(), scoreboard}) {
    SCOPED_TRACE(who == scoreboard ? "a role that may not"
                 : who.empty()     ? "no token"
                                   : "bad token");
    const StatusCode refusal =
        who == scoreboard ? StatusCode::PERMISSION_DENIED : StatusCode::UNAUTHENTICATED;
    int refused = 0;
    int exhausted = 0;
    const absl::Time start = absl::Now();
    for (int i = 0; i < kCalls; ++i) {
      v1::AppendEventsRequest req;
      req.set_game("games/refused-1");
      *req.add_events() = Created("refused-1", T0());
      v1::AppendEventsResponse resp;
      const grpc::Status s = stub->AppendEvents(Context(who).get(), req, &resp);
      if (s.error_code() == refusal) ++refused;
      if (s.error_code() == StatusCode::RESOURCE_EXHAUSTED) ++exhausted;
    }
    const int refills = static_cast<int>(absl::ToDoubleSeconds(absl::Now() - start)) + 1;
    EXPECT_EQ(refused + exhausted, kCalls);
    // The no-token caller shares the peer host's bucket the bad token spent.
    EXPECT_GE(refused, who.empty() ? 0 : 1);
    EXPECT_LE(refused, 2 + refills);
    EXPECT_GE(exhausted, kCalls - 2 - refills);
  }
  v1::Game game;
  const grpc::Status own = GetGame(*stub, "none", &game);  // no token: the host's bucket
  EXPECT_EQ(own.error_code(), StatusCode::RESOURCE_EXHAUSTED) << own.error_message();
  v1::GetGameRequest req;
  req.set_name("games/none");
  const grpc::Status chiefs = stub->GetGame(Context(chief).get(), req, &game);
  EXPECT_EQ(chiefs.error_code(), StatusCode::NOT_FOUND) << chiefs.error_message();
}

// A status is printed by clients and their logs, and messages quote client
// values: a clause id, a page token, a ruleset. Control characters and
// bidirectional overrides come back escaped (grpc_status.h `Printable`);
// before, "\n\x1b[31mFORGED..." came back raw on these paths and forged a
// log line in whatever printed it.
TEST(GrpcLimitsTest, StatusMessagesCarryNoControlCharacters) {
  TempDir dir("arbiter-grpc-printable");
  const std::string data = dir.File("data");
  const std::string token = CreateToken(data, "SOFTWARE", "scoreboard");
  ASSERT_FALSE(token.empty());
  auto server = ServerProcess::Start(data);
  ASSERT_NE(server, nullptr);
  auto stub = v1::Arbiter::NewStub(
      grpc::CreateChannel(server->address(), grpc::InsecureChannelCredentials()));
  const std::string forged = "x\n\x1b[31mFORGED LOG LINE\x1b[0m\r\xe2\x80\xae";
  std::vector<std::pair<std::string, grpc::Status>> answers;
  {
    v1::GetClauseRequest req;
    req.set_clause(forged);
    v1::Clause out;
    answers.emplace_back("GetClause", stub->GetClause(Context(token).get(), req, &out));
  }
  {
    v1::GetRulesetRequest req;
    req.set_name("rulesets/cn-2002");
    req.set_supplement(forged);
    v1::RulesetView out;
    answers.emplace_back("GetRuleset", stub->GetRuleset(Context(token).get(), req, &out));
  }
  for (const auto& [method, status] : answers) {
    SCOPED_TRACE(method);
    ASSERT_FALSE(status.ok());
    const std::string& m = status.error_message();
    for (const char c : m) {
      EXPECT_FALSE(static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
          << "a control character in: " << absl::CHexEscape(m);
    }
    EXPECT_FALSE(absl::StrContains(m, "\xe2\x80\xae")) << absl::CHexEscape(m);
    EXPECT_TRUE(absl::StrContains(m, "\\x1b[31mFORGED")) << m;
    EXPECT_TRUE(absl::StrContains(m, "\\u202e")) << m;
  }
}

}  // namespace
}  // namespace arbiter::testing
