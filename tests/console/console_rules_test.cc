// The console held to the gRPC path's rules (issue 27.2): one decision table
// (valid, dated three hours ahead, oversize, the wrong role, a replayed
// idempotency key) run through gRPC's Decide and through the console's
// decide endpoint, each row on a game of its own in the same state; the
// outcomes must be the same, and a refused decision writes nothing either way.
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/strip.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "arbiter/v1/service.grpc.pb.h"
#include "google/protobuf/util/json_util.h"
#include "grpcpp/create_channel.h"
#include "grpcpp/security/credentials.h"
#include "gtest/gtest.h"
#include "httplib.h"
#include "tests/support/arbiter_process.h"
#include "tests/support/console_client.h"
#include "tests/support/paths.h"
#include "tests/support/temp_dir.h"

namespace arbiter::testing {
namespace {

// The first four events of the project scenario whose clock fails in
// absolute time, as game `id`: 12.4.6 leaves its ruling (1) to the chief
// arbiter.
std::string Game(const std::string& id) {
  std::ifstream in(TestDataPath("scenarios/project/clock-failed-absolute-time.jsonl"));
  std::string text, line;
  for (int i = 0; i < 4 && std::getline(in, line); ++i) text += line + "\n";
  return absl::StrReplaceAll(text, {{"\"clock-failed-absolute-time\"", "\"" + id + "\""}});
}

// One row: who decides what, with which request, and the code both paths
// must answer.
struct Row {
  std::string name;
  std::string who;  // "chief", "arbiter" or "auditor"
  v1::DecideRequest request;
  std::string expected;  // absl::StatusCodeToString of the outcome
  // Decided once first, OK, by the chief: a replay of its key follows.
  bool decided_before = false;
};

class ConsoleRulesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    secrets_["chief"] = Token("CHIEF_ARBITER", "Wang Ru");
    secrets_["arbiter"] = Token("ARBITER", "Li Wei");
    secrets_["auditor"] = Token("AUDITOR", "Audit Office");
    server_ = ServerProcess::Start(dir_.File("data"), {"--http", "127.0.0.1:0"});
    ASSERT_NE(server_, nullptr);
    stub_ = v1::Arbiter::NewStub(
        grpc::CreateChannel(server_->address(), grpc::InsecureChannelCredentials()));
    for (const char* who : {"chief", "arbiter", "auditor"}) SignIn(who);
  }

  std::string Token(const std::string& role, const std::string& name) {
    std::string token = ::arbiter::testing::CreateToken(dir_.File("data"), role, name);
    EXPECT_FALSE(token.empty()) << "arbiter token create failed";
    return token;
  }

  std::unique_ptr<httplib::Client> Http() { return ::arbiter::testing::ConsoleClient(*server_); }

  // A session for `who`: its cookie and CSRF token.
  void SignIn(const std::string& who) {
    httplib::Result r = Http()->Post("/login", httplib::Params{{"token", secrets_[who]}});
    ASSERT_TRUE(r);
    ASSERT_EQ(r->status, 303);
    const std::string set = r->get_header_value("Set-Cookie");
    cookies_[who] = set.substr(0, set.find(';'));
    httplib::Result s = Http()->Get("/api/session", {{"Cookie", cookies_[who]}});
    ASSERT_TRUE(s && s->status == 200);
    const size_t at = s->body.find("\"csrf\":\"");
    ASSERT_NE(at, std::string::npos);
    csrfs_[who] = s->body.substr(at + 8, 64);
  }

  void Record(const std::string& id) {
    const ProcessResult r = RunCli({"record", "-"}, Game(id), server_->address(),
                                   {{"ARBITER_TOKEN", secrets_["chief"]}});
    ASSERT_EQ(r.exit, 0) << r.err;
  }

  size_t Events(const std::string& id) {
    grpc::ClientContext ctx;
    ctx.AddMetadata("authorization", "Bearer " + secrets_["chief"]);
    v1::ListEventsRequest req;
    req.set_game("games/" + id);
    v1::ListEventsResponse out;
    const grpc::Status s = stub_->ListEvents(&ctx, req, &out);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return out.events_size();
  }

  // The outcome through gRPC: the status code's name.
  std::string ByGrpc(const std::string& who, const std::string& game, v1::DecideRequest request) {
    request.set_game("games/" + game);
    grpc::ClientContext ctx;
    ctx.AddMetadata("authorization", "Bearer " + secrets_[who]);
    v1::AppendEventsResponse out;
    const grpc::Status s = stub_->Decide(&ctx, request, &out);
    return absl::StatusCodeToString(static_cast<absl::StatusCode>(s.error_code()));
  }

  // The outcome through the console: the error's code, OK for a 200.
  std::string ByConsole(const std::string& who, const std::string& game,
                        v1::DecideRequest request) {
    std::string body;
    EXPECT_TRUE(google::protobuf::util::MessageToJsonString(request, &body).ok());
    httplib::Result r = Http()->Post(
        absl::StrCat("/api/games/", game, "/rulings/", request.ruling(), "/decide"),
        {{"Cookie", cookies_[who]}, {"X-CSRF-Token", csrfs_[who]}}, body, "application/json");
    EXPECT_TRUE(r);
    if (!r) return "no answer";
    if (r->status == 200) return "OK";
    const size_t at = r->body.find("\"code\":\"");
    if (at == std::string::npos) return absl::StrCat("HTTP ", r->status, ": ", r->body);
    return r->body.substr(at + 8, r->body.find('"', at + 8) - at - 8);
  }

  TempDir dir_{"console-rules-test"};
  std::unique_ptr<ServerProcess> server_;
  std::unique_ptr<v1::Arbiter::Stub> stub_;
  std::map<std::string, std::string> secrets_, cookies_, csrfs_;
};

v1::DecideRequest Deciding(const std::string& choice) {
  v1::DecideRequest d;
  d.set_ruling(1);
  d.set_choice(choice);
  return d;
}

TEST_F(ConsoleRulesTest, SameDecisionTableSameOutcomes) {
  std::vector<Row> rows;
  rows.push_back({"valid", "chief", Deciding("BLACK_LOSES"), "OK"});
  {
    v1::DecideRequest d = Deciding("BLACK_LOSES");
    const absl::Time ahead = absl::Now() + absl::Hours(3);
    d.mutable_at()->set_seconds(absl::ToUnixSeconds(ahead));
    rows.push_back({"skewed", "chief", d, "INVALID_ARGUMENT"});
  }
  {
    v1::DecideRequest d = Deciding("BLACK_LOSES");
    d.set_note(std::string(5000, 'n'));
    rows.push_back({"oversize-note", "chief", d, "INVALID_ARGUMENT"});
    v1::DecideRequest k = Deciding("BLACK_LOSES");
    k.set_request_id(std::string(300, 'k'));
    rows.push_back({"oversize-key", "chief", k, "INVALID_ARGUMENT"});
  }
  rows.push_back(
      {"arbiter-on-chiefs-clause", "arbiter", Deciding("BLACK_LOSES"), "PERMISSION_DENIED"});
  rows.push_back({"auditor", "auditor", Deciding("BLACK_LOSES"), "PERMISSION_DENIED"});
  {
    v1::DecideRequest other = Deciding("WHITE_LOSES");
    other.set_request_id("decision-1");
    rows.push_back({"replayed-key-other-content", "chief", other, "ALREADY_EXISTS", true});
  }

  for (const Row& row : rows) {
    SCOPED_TRACE(row.name);
    const std::string g = "g-" + row.name, h = "h-" + row.name;
    Record(g);
    Record(h);
    if (row.decided_before) {
      v1::DecideRequest first = Deciding("BLACK_LOSES");
      first.set_request_id("decision-1");
      ASSERT_EQ(ByGrpc("chief", g, first), "OK");
      ASSERT_EQ(ByConsole("chief", h, first), "OK");
    }
    const size_t before = Events(g);
    ASSERT_EQ(Events(h), before);
    const std::string by_grpc = ByGrpc(row.who, g, row.request);
    const std::string by_console = ByConsole(row.who, h, row.request);
    EXPECT_EQ(by_grpc, row.expected);
    EXPECT_EQ(by_console, by_grpc);
    const size_t written = row.expected == "OK" ? 1 : 0;
    EXPECT_EQ(Events(g), before + written);
    EXPECT_EQ(Events(h), before + written);
  }
}

// The console's decide endpoint takes the dry run too ("validateOnly"): the
// ruling it would bring, nothing written.
TEST_F(ConsoleRulesTest, DecideDryRunThroughTheConsole) {
  Record("dry");
  const size_t before = Events("dry");
  httplib::Result r =
      Http()->Post("/api/games/dry/rulings/1/decide",
                   {{"Cookie", cookies_["chief"]}, {"X-CSRF-Token", csrfs_["chief"]}},
                   R"({"choice": "BLACK_LOSES", "validateOnly": true})", "application/json");
  ASSERT_TRUE(r);
  ASSERT_EQ(r->status, 200) << r->body;
  v1::AppendEventsResponse dry;
  ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(r->body, &dry).ok()) << r->body;
  ASSERT_EQ(dry.events_size(), 1);
  bool resolves = false;
  for (const v1::Ruling& ruling : dry.events(0).rulings()) resolves |= ruling.resolves() == 1;
  EXPECT_TRUE(resolves) << r->body;
  EXPECT_EQ(dry.result().outcome(), v1::Result::WHITE_WINS);
  EXPECT_EQ(Events("dry"), before);
  // Then decided for real: the same ruling, now recorded.
  EXPECT_EQ(ByConsole("chief", "dry", Deciding("BLACK_LOSES")), "OK");
  EXPECT_EQ(Events("dry"), before + 1);
}

}  // namespace
}  // namespace arbiter::testing
